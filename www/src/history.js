// The history panel: the kept revisions of the open memory, and viewing one.
// Reverting is a write, so it is handed in (see save.js) rather than known here.

import { state, describeError } from "./session.js";
import { byTestId } from "./dom.js";
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
    renderHistory(entries, state.baseRevision, { onView: viewRevision, onRevert: (revision) => revert(revision) });
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not read the history: ${describeError(error)}` });
  }
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
