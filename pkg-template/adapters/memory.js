// An in-memory KvHost: compare-and-swap on a Map. For tests, for a single
// process, and as the reference for what the other adapters must do.

/** @returns {import("./memory.js").MemoryHost} */
export function memoryHost() {
  const entries = new Map();
  // Versions count up and never repeat, also after a delete.
  let counter = 0;
  return {
    async get(key) {
      const entry = entries.get(key);
      return entry ? { value: entry.value, version: entry.version } : null;
    },
    async put(key, value, condition) {
      const current = entries.get(key);
      const expected = condition ? condition.expectedVersion : null;
      if ((current ? current.version : null) !== expected) return { ok: false };
      counter += 1;
      const version = String(counter);
      entries.set(key, { value, version });
      return { ok: true, version };
    },
    async delete(key) {
      entries.delete(key);
    },
    /** Every key held, for inspection in tests. */
    keys() {
      return [...entries.keys()];
    },
  };
}
