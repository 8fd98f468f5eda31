// What the page says about itself outside the editor: busy, the revision
// label, the unsaved marker, the engine banner, and the notices that sit
// below the Save button (the conflict panel, the kept text, and last the
// other writer's notice, the one that comes unasked), where their coming and
// going moves neither the editor nor a button above them.

import { state } from "./session.js";
import { byTestId, formatTime } from "./dom.js";

export function showEngineError(message) {
  const banner = byTestId("engine-error");
  banner.textContent = message;
  banner.hidden = false;
}

/** The buttons that save. */
const SAVES = ["save", "conflict-save", "conflict-overwrite"];

/** Whether the source is a hub whose key may only read. */
export const readerOnly = () => state.hub?.role === "reader";

export function setBusy(on) {
  state.busy = on;
  for (const id of ["save", "conflict-save", "conflict-overwrite", "conflict-reload", "open"]) {
    byTestId(id).disabled = on || (readerOnly() && SAVES.includes(id));
  }
  document.body.setAttribute("aria-busy", on ? "true" : "false");
}

export function renderRevision() {
  const label = byTestId("revision");
  label.dataset.revision = String(state.baseRevision);
  if (state.baseRevision === 0) {
    label.textContent = `${state.ref.scope} · ${state.ref.id} · new memory (no revision yet)`;
  } else {
    const who = state.updatedBy ? ` by ${state.updatedBy}` : "";
    const when = state.updatedAt ? `, ${formatTime(state.updatedAt)}` : "";
    label.textContent = `${state.ref.scope} · ${state.ref.id} · revision ${state.baseRevision}${who}${when}`;
  }
}

/** The unsaved marker and the title; each check calls this, and seldom changes either. */
export function renderDirty() {
  const marker = byTestId("dirty");
  if (marker.hidden === state.dirty) marker.hidden = !state.dirty;
  const title = `${state.dirty ? "• " : ""}memdoc — ${state.ref ? state.ref.id : "memory editor"}`;
  if (document.title !== title) document.title = title;
}

export function closeConflict() {
  state.conflict = null;
  byTestId("conflict").hidden = true;
}

export function hideRemoteChange() {
  byTestId("remote-change").hidden = true;
}

/** Keep `text` on the page (below the editor) before something replaces it. */
export function keepText(text) {
  byTestId("kept-text").textContent = text;
  byTestId("kept").hidden = false;
}
