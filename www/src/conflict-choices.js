// The three ways out of a conflict: merge (the store's three-way merge),
// overwrite (theirs stays in the history) and reload (ours stays on the page).

import { state } from "./session.js";
import { keepText } from "./status.js";
import { adoptRevision } from "./revision.js";
import { describeMergeConflicts } from "./conflict.js";
import { save } from "./save.js";

export async function conflictMerge() {
  if (!state.conflict) return;
  const outcome = await save({ onConflict: "merge", baseRevision: state.conflict.baseRevision });
  if (outcome?.status === "conflict") describeMergeConflicts(outcome);
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
