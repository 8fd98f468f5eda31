// The conflict panel: someone saved after the revision being edited. It
// shows both versions; when the store's merge collides, it lists what
// collides and offers the merged text for editing, both as the store's
// outcome has them (the store merged once; nothing here merges again).

import { state } from "./session.js";
import { byTestId, el, replaceChildren, formatTime } from "./dom.js";
import { hideRemoteChange, keepText } from "./status.js";
import { renderOutcome } from "./views.js";
import { adoptRevision } from "./revision.js";

export async function openConflict(ours) {
  const theirs = await state.store.load(state.ref);
  state.conflict = { theirs, baseRevision: state.baseRevision, base: state.base };
  byTestId("conflict-summary").textContent =
    `Revision ${theirs.revision} was saved${theirs.updatedBy ? ` by ${theirs.updatedBy}` : ""}` +
    `${theirs.updatedAt ? ` at ${formatTime(theirs.updatedAt)}` : ""} while you were editing revision ${state.baseRevision}. ` +
    "Nothing has been overwritten. Merge keeps both sets of changes when they do not touch the same lines.";
  byTestId("conflict-ours").textContent = ours;
  byTestId("conflict-theirs").textContent = theirs.content;
  byTestId("conflict-theirs-caption").textContent =
    `Theirs (revision ${theirs.revision}${theirs.updatedBy ? `, ${theirs.updatedBy}` : ""})`;
  byTestId("conflict-detail").hidden = true;
  byTestId("conflict-merge").hidden = false;
  hideRemoteChange();
  const panel = byTestId("conflict");
  panel.hidden = false;
  renderOutcome({
    status: "conflict",
    title: `Conflict: revision ${theirs.revision} was saved by ${theirs.updatedBy ?? "someone else"} after you opened revision ${state.baseRevision}. Choose merge, overwrite or reload.`,
  });
  byTestId("conflict-title").focus();
}

const CONFLICT_KIND = {
  lines: "the same lines were changed differently on both sides",
  "section-removed": "removed on one side and changed on the other",
  title: "the title was rewritten differently on both sides",
};

function sideBlock(label, side) {
  return el("figure", { class: "side" },
    el("figcaption", { text: label }),
    el("pre", { text: side === null ? "(section removed)" : side.lines.join("\n") || "(lines deleted)" }));
}

/**
 * The store could not merge cleanly: list what collides and offer to edit the
 * merged text with its conflict markers, on top of the revision the store
 * holds now, exactly as the store's `outcome` has them (docs/API.md: in the
 * store's merge "ours" is what is stored, "theirs" is this edit).
 */
export function describeMergeConflicts(outcome) {
  const detail = byTestId("conflict-detail");
  if (!outcome.merged) {
    replaceChildren(detail, el("p", { text: `The store could not merge: ${outcome.notice ?? "both versions changed the same part of the memory."}` }));
    detail.hidden = false;
    return;
  }
  // Merging again would stop at the same place.
  byTestId("conflict-merge").hidden = true;
  const items = outcome.conflicts.map((c) => el("li", { "data-testid": "conflict-item", "data-kind": c.kind },
    el("p", {}, el("strong", { text: c.section }), `: ${CONFLICT_KIND[c.kind] ?? c.kind}`),
    el("div", { class: "versions" }, sideBlock("Yours", c.theirs), sideBlock(`Stored (revision ${outcome.revision})`, c.ours))));
  const stored = state.conflict?.theirs.revision === outcome.revision
    ? state.conflict.theirs
    : { content: outcome.content, revision: outcome.revision, updatedAt: null, updatedBy: null };
  replaceChildren(detail,
    el("p", { text: `The automatic merge stopped at ${items.length} conflict${items.length === 1 ? "" : "s"}:` }),
    el("ul", { class: "conflict-items" }, items),
    el("button", {
      type: "button",
      "data-testid": "conflict-edit-merged",
      text: "Edit the merged text (both sides marked where they collide)",
      onClick: async () => {
        keepText(state.editor.getText());
        await adoptRevision({ ...stored, content: outcome.content }, {
          text: outcome.merged,
          outcome: {
            status: "draft",
            title: `The merged text is in the editor, on top of revision ${outcome.revision}. Resolve each part between <<<<<<< and >>>>>>>, remove the markers, then save.`,
          },
        });
        state.editor.select(0, 0);
      },
    }));
  detail.hidden = false;
}
