// Unsaved work survives a reload, a memory switch or a crash of the tab: the
// text and the revision it was based on are kept per memory in this tab's
// sessionStorage (not localStorage: two tabs acting as two people must not
// share drafts). The draft is dropped once the text is saved or matches the
// stored memory. Drafts of a hub's memories are kept apart from this
// browser's (the key names the hub and team).

import { state } from "./session.js";

const PREFIX = "memdoc-editor:draft:";

/** Per memory and per source: a hub's memory is not this browser's memory of the same name. */
function key(ref) {
  const source = state.store?.url ? `${state.store.url} ${state.store.team}:` : "";
  return `${PREFIX}${source}${ref.scope}:${ref.id}`;
}

/** The draft for `ref`, or null. A corrupt entry is reported, not thrown. */
export function readDraft(ref) {
  let raw;
  try {
    raw = sessionStorage.getItem(key(ref));
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const draft = JSON.parse(raw);
    if (typeof draft?.text === "string" && Number.isInteger(draft?.baseRevision)) return draft;
  } catch {
    // fall through: an unreadable draft is left in place and ignored
  }
  return null;
}

/** Remember `text` (edited from `baseRevision`) for `ref`. Returns false if storage refused. */
export function writeDraft(ref, text, baseRevision) {
  try {
    sessionStorage.setItem(key(ref), JSON.stringify({ text, baseRevision, at: new Date().toISOString() }));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(ref) {
  try {
    sessionStorage.removeItem(key(ref));
  } catch {
    // storage unavailable: nothing was kept either
  }
}
