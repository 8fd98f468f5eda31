// The history panel: the kept revisions of the open memory, viewing one, and
// what one changed against the revision before it.
// Reverting is a write, so it is handed in (see save.js) rather than known here.

import { state, describeError } from "./session.js";
import { byTestId, el, replaceChildren } from "./dom.js";
import { lineChanges } from "./line-changes.js";
import { renderHistory, renderOutcome } from "./views.js";

let revert = async () => {};

/** Set what the panel's revert buttons do. */
export function onRevertRequest(handler) {
  revert = handler;
}

export async function refreshHistory() {
  if (!state.ref) return;
  try {
    const entries = await state.store.history(state.ref);
    renderHistory(entries, state.baseRevision, { onView: viewRevision, onChanges: showChanges, onRevert: (revision) => revert(revision) });
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not read the history: ${describeError(error)}` });
  }
}

/** Lines kept on either side of a change; longer unchanged stretches are folded. */
const CONTEXT = 1;

/** The changed lines of `changes`, with CONTEXT unchanged lines around them and "⋯" for the rest. */
function changedLines(changes) {
  const near = changes.map((c, k) => c.change !== "same" ||
    changes.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((d) => d.change !== "same"));
  const out = [];
  changes.forEach((c, k) => {
    if (near[k]) {
      const mark = { same: "  ", removed: "− ", added: "+ " }[c.change];
      out.push(el("span", { class: "line", "data-change": c.change === "same" ? null : c.change, text: `${mark}${c.line}\n` }));
    } else if (k === 0 || near[k - 1]) {
      out.push(el("span", { class: "line fold", text: "⋯\n" }));
    }
  });
  return out;
}

async function showChanges(revision) {
  const [text, before] = await Promise.all([
    state.store.revision(state.ref, revision),
    revision > 1 ? state.store.revision(state.ref, revision - 1) : "",
  ]);
  const box = byTestId("revision-view");
  const body = byTestId("revision-view-text");
  if (text === null || before === null) {
    byTestId("revision-view-title").textContent = `Changes in revision ${revision}`;
    body.textContent = "This revision or the one before it is no longer kept (older than the history depth).";
  } else {
    const changes = lineChanges(before, text);
    const removed = changes.filter((c) => c.change === "removed").length;
    const added = changes.filter((c) => c.change === "added").length;
    byTestId("revision-view-title").textContent =
      `Changes in revision ${revision} against ${revision > 1 ? `revision ${revision - 1}` : "an empty memory"}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed`;
    replaceChildren(body, added + removed ? changedLines(changes) : "No line changed.");
  }
  box.hidden = false;
  box.dataset.revision = String(revision);
  byTestId("revision-view-title").focus();
}

async function viewRevision(revision) {
  const text = await state.store.revision(state.ref, revision);
  const box = byTestId("revision-view");
  byTestId("revision-view-title").textContent = `Revision ${revision}`;
  byTestId("revision-view-text").textContent = text === null
    ? "This revision is no longer kept (older than the history depth)."
    : text;
  box.hidden = false;
  box.dataset.revision = String(revision);
  byTestId("revision-view-title").focus();
}
