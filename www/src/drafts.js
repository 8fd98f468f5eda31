// Unsaved work survives a reload, a memory switch or a crash of the tab: the
// text and the revision it was based on are kept per memory in this tab's
// sessionStorage (not localStorage: two tabs acting as two people must not
// share drafts). The draft is dropped once the text is saved or matches the
// stored memory. After a check, the draft is written when the page is next
// idle (within a second): writing 25 KB to storage on every keystroke's
// check took longer than the check itself. Leaving the page or switching
// memories writes the very latest text at once. Drafts of a hub's memories are kept apart from this
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

/** The draft waiting for an idle moment: `{ key, text, baseRevision, cancel }`. */
let pending = null;

/** Run `fn` when the page is next idle (within a second); `{ cancel }`. */
function whenIdle(fn) {
  if (globalThis.requestIdleCallback) {
    const id = requestIdleCallback(fn, { timeout: 1000 });
    return { cancel: () => cancelIdleCallback(id) };
  }
  const id = setTimeout(fn, 200);
  return { cancel: () => clearTimeout(id) };
}

function cancelPending(ref) {
  if (pending && pending.key === key(ref)) {
    pending.cancel();
    pending = null;
  }
}

/**
 * Remember `text` for `ref` when the page is next idle (the latest call
 * wins). A draft of the same memory already waiting takes the new text and
 * keeps its turn: no new idle callback per check.
 */
export function scheduleDraft(ref, text, baseRevision) {
  const k = key(ref);
  if (pending && pending.key === k) {
    pending.text = text;
    pending.baseRevision = baseRevision;
    return;
  }
  // Another memory's draft still waiting is written first, never dropped.
  flushDraft();
  pending = { key: k, text, baseRevision, ...whenIdle(flushDraft) };
}

/** Write the draft still waiting for an idle moment, now. */
export function flushDraft() {
  if (!pending) return;
  const { key: k, text, baseRevision } = pending;
  pending.cancel();
  pending = null;
  store(k, text, baseRevision);
}

/** Remember `text` (edited from `baseRevision`) for `ref` now. Returns false if storage refused. */
export function writeDraft(ref, text, baseRevision) {
  cancelPending(ref);
  return store(key(ref), text, baseRevision);
}

function store(k, text, baseRevision) {
  try {
    sessionStorage.setItem(k, JSON.stringify({ text, baseRevision, at: new Date().toISOString() }));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(ref) {
  cancelPending(ref);
  try {
    sessionStorage.removeItem(key(ref));
  } catch {
    // storage unavailable: nothing was kept either
  }
}
