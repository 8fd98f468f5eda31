// Other tabs: they share localStorage, so their saves arrive as `storage`
// events. An untouched memory follows along; an edited one gets a notice.

import { state } from "./session.js";
import { byTestId } from "./dom.js";
import { keepText } from "./status.js";
import { adoptRevision } from "./revision.js";

/** Another tab wrote to localStorage: tell the person if their memory moved on. */
export async function checkRemote({ force = false } = {}) {
  if (!state.ref || (state.busy && !force)) return;
  let latest;
  try {
    latest = await state.store.load(state.ref);
  } catch {
    return;
  }
  if (latest.revision === state.baseRevision) return;
  if (!state.dirty && !state.conflict) {
    await adoptRevision(latest, {
      fresh: true,
      outcome: { status: "loaded", title: `Updated to revision ${latest.revision}, saved by ${latest.updatedBy ?? "someone"} in another tab.` },
    });
    return;
  }
  byTestId("remote-change-text").textContent =
    `Revision ${latest.revision} was saved by ${latest.updatedBy ?? "someone"} in another tab. Saving now will show both versions.`;
  byTestId("remote-change").hidden = false;
}

/** Load the other tab's revision; the text being edited is kept on the page. */
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
