// The conflict panel: someone saved after the revision being edited. It
// shows the three versions — the revision this edit started from (base),
// yours and theirs — with the lines each side changed highlighted, and the
// engine's merge of yours and theirs as a text the person reads and edits,
// each conflict listed with a choice of version (conflict-choices.js).
// Nothing is saved until the person saves that text; what they typed (in
// the editor or in the merged text) stays until they decide.

import { state } from "./session.js";
import { byTestId, el, replaceChildren, formatTime } from "./dom.js";
import { hideRemoteChange } from "./status.js";
import { renderOutcome } from "./views.js";
import { renderChoices } from "./conflict-choices.js";

/** The lines of `text` with those that `others` (texts) do not all hold marked as changed; conflicting lines marked as such. */
function markedLines(text, others, conflicting) {
  const sets = others.map((o) => new Set(o.split("\n")));
  const lines = text.split("\n");
  return lines.map((line, k) => {
    const change = conflicting.has(line) && line !== "" ? "conflict" : sets.some((s) => !s.has(line)) ? "changed" : null;
    return el("span", { class: "line", "data-change": change, text: k < lines.length - 1 ? `${line}\n` : line });
  });
}

function showVersion(testId, text, others, conflicting) {
  replaceChildren(byTestId(testId), markedLines(text, others, conflicting));
}

export async function openConflict(ours) {
  const theirs = await state.store.load(state.ref);
  const base = state.base;
  // Yours first: where the merge conflicts, its text holds your version.
  const merged = state.engine.merge(base, ours, theirs.content);
  state.conflict = { theirs, baseRevision: state.baseRevision, base, ours, merged };
  const conflicting = new Set(merged.conflicts.flatMap((c) => [c.base, c.ours, c.theirs].flatMap((s) => s?.lines ?? [])));
  showVersion("conflict-base", base, [ours, theirs.content], conflicting);
  showVersion("conflict-ours", ours, [base], conflicting);
  showVersion("conflict-theirs", theirs.content, [base], conflicting);
  byTestId("conflict-base-caption").textContent = `Base (revision ${state.baseRevision}, where you started)`;
  byTestId("conflict-theirs-caption").textContent =
    `Theirs (revision ${theirs.revision}${theirs.updatedBy ? `, ${theirs.updatedBy}` : ""})`;
  const n = merged.conflicts.length;
  byTestId("conflict-summary").textContent =
    `Revision ${theirs.revision} was saved${theirs.updatedBy ? ` by ${theirs.updatedBy}` : ""}` +
    `${theirs.updatedAt ? ` at ${formatTime(theirs.updatedAt)}` : ""} while you were editing revision ${state.baseRevision}. ` +
    "Nothing has been overwritten. " +
    (n === 0
      ? "Your changes and theirs merge without conflict: read the merged text below, edit it if needed, then save it."
      : `Your changes and theirs conflict in ${n} place${n === 1 ? "" : "s"}: choose a version for each, or edit the merged text, then save it.`);
  byTestId("conflict-result").value = merged.content;
  renderChoices(merged);
  hideRemoteChange();
  byTestId("conflict").hidden = false;
  renderOutcome({
    status: "conflict",
    title: `Conflict: revision ${theirs.revision} was saved by ${theirs.updatedBy ?? "someone else"} after you opened revision ${state.baseRevision}. Review the merge, overwrite or reload.`,
  });
  byTestId("conflict-title").focus();
}
