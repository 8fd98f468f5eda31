// Other writers: other tabs share localStorage, so their saves arrive as
// `storage` events; a hub's arrive as live events (live.js). An untouched
// memory follows along; an edited one gets a notice that offers the merge.

import { state } from "./session.js";
import { byTestId } from "./dom.js";
import { keepText } from "./status.js";
import { writeDraft } from "./drafts.js";
import { adoptRevision } from "./revision.js";
import { openConflict } from "./conflict.js";

/** Where other writers save, for notices: "in another tab", or the store's own word ("on the hub"). */
const where = () => state.store.where ?? "in another tab";

/** Another writer may have saved (another tab, or the hub): tell the person if their memory moved on. */
export async function checkRemote({ force = false } = {}) {
  if (!state.ref || (state.busy && !force)) return;
  let latest;
  try {
    latest = await state.store.load(state.ref);
  } catch {
    return;
  }
  if (latest.revision === state.baseRevision) return;
  // The open conflict panel already shows this revision beside the text.
  if (state.conflict?.theirs.revision === latest.revision) return;
  // Whether the person has typed is decided now, from the text itself: the
  // last check (state.dirty) may be up to a lint delay behind the keys.
  const text = state.editor.getText();
  const edited = text !== state.base;
  if (!edited && !state.conflict) {
    await adoptRevision(latest, {
      fresh: true,
      outcome: { status: "loaded", title: `Updated to revision ${latest.revision}, saved by ${latest.updatedBy ?? "someone"} ${where()}.` },
    });
    return;
  }
  // Kept at once: what was typed survives a reload from here on.
  if (edited) writeDraft(state.ref, text, state.baseRevision);
  byTestId("remote-change-text").textContent =
    `Revision ${latest.revision} was saved by ${latest.updatedBy ?? "someone"} ${where()}. Your text is kept: merge it with theirs, or load theirs.`;
  byTestId("remote-change").hidden = false;
}

/** Show the other writer's revision beside the text being edited, with merge, overwrite and reload. */
export async function mergeRemote() {
  if (state.busy) return;
  await openConflict(state.editor.getText());
}

/** Load the other writer's revision; the text being edited is kept on the page. */
export async function loadRemote() {
  const current = state.editor.getText();
  if (current !== state.base) keepText(current);
  const latest = await state.store.load(state.ref);
  await adoptRevision(latest, { fresh: true });
}

let timer = null;

/** Check once the burst of `storage` events of one save is over. */
export function scheduleRemoteCheck() {
  clearTimeout(timer);
  timer = setTimeout(checkRemote, 100);
}
