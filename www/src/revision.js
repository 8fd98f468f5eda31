// Adopting a revision: the one sequence by which a stored revision (just
// opened, saved, reverted to, reloaded after a conflict, or saved by another
// tab) becomes the base the editor edits from.

import { state } from "./session.js";
import { clearDraft, writeDraft } from "./drafts.js";
import { renderOutcome } from "./views.js";
import { renderRevision, closeConflict, hideRemoteChange } from "./status.js";
import { refreshHistory } from "./history.js";

/**
 * Make `revision` (`{ content, revision, updatedAt, updatedBy }`, as the
 * store's `load` returns it) the base of the open memory, and show `text`:
 * - `text`: what the editor shows (default: the revision's content); `null`
 *   keeps the editor's text as it is (the person typed on during a save);
 * - `fresh`: show it as a new document with a fresh undo history (`load`),
 *   rather than as an undoable edit (`setText`);
 * - `outcome`: what to announce (see views.renderOutcome), if anything.
 * Any open conflict or other-tab notice is closed: they were about the
 * revision left behind. Unsaved text is kept as a draft against the new base.
 */
export async function adoptRevision(revision, { text = revision.content, fresh = false, outcome = null } = {}) {
  const { editor } = state;
  state.base = revision.content;
  state.baseRevision = revision.revision;
  state.updatedAt = revision.updatedAt;
  state.updatedBy = revision.updatedBy;
  if (text !== null) {
    if (fresh) editor.load(text);
    else editor.setText(text);
  }
  const shown = editor.getText();
  if (shown === state.base) clearDraft(state.ref);
  else writeDraft(state.ref, shown, state.baseRevision);
  closeConflict();
  hideRemoteChange();
  if (outcome) renderOutcome(outcome);
  renderRevision();
  editor.relint();
  await refreshHistory();
}
