// The ways out of a conflict: save the merged text the person reviewed,
// overwrite (theirs stays in the history) and reload (yours stays on the
// page).

import { state } from "./session.js";
import { byTestId } from "./dom.js";
import { keepText } from "./status.js";
import { adoptRevision } from "./revision.js";
import { save } from "./save.js";

/** Save the merged text as the person left it, on top of theirs. */
export async function conflictSaveResult() {
  if (!state.conflict) return;
  const text = byTestId("conflict-result").value;
  await save({ text, baseRevision: state.conflict.theirs.revision });
}

export async function conflictOverwrite() {
  if (!state.conflict) return;
  // Theirs stays in the history, so overwriting loses nothing.
  await save({ baseRevision: state.conflict.theirs.revision });
}

export async function conflictReload() {
  if (!state.conflict) return;
  keepText(state.editor.getText());
  const theirs = await state.store.load(state.ref);
  await adoptRevision(theirs, {
    fresh: true,
    outcome: { status: "loaded", title: `Loaded revision ${theirs.revision}. Your version is kept below.` },
  });
}
