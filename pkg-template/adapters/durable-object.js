// A KvHost over the storage of a Cloudflare Durable Object (state.storage).
//
// Durable Object storage is strongly consistent and transactional, so
// compare-and-swap is exact: the check and the write run in one storage
// transaction. Use it from inside the Durable Object that owns the memory.

function nextVersion(previous) {
  const n = previous ? Number.parseInt(previous.split(".")[0], 10) || 0 : 0;
  // The random part keeps a version from repeating if the key is deleted.
  return `${n + 1}.${crypto.randomUUID().slice(0, 8)}`;
}

function record(key, stored) {
  if (stored === undefined) return null;
  if (!stored || typeof stored.value !== "string" || typeof stored.version !== "string") {
    throw new Error(`Durable Object key ${JSON.stringify(key)} is not a memdoc record`);
  }
  return stored;
}

/** @param {DurableObjectStorage} storage */
export function durableObjectHost(storage) {
  if (!storage || typeof storage.get !== "function" || typeof storage.put !== "function" || typeof storage.delete !== "function") {
    throw new TypeError("durableObjectHost needs a Durable Object storage (state.storage)");
  }
  return {
    async get(key) {
      const item = record(key, await storage.get(key));
      return item ? { value: item.value, version: item.version } : null;
    },
    async put(key, value, condition) {
      const expected = condition ? condition.expectedVersion : null;
      const write = async (txn) => {
        const now = record(key, await txn.get(key));
        if ((now ? now.version : null) !== expected) return { ok: false };
        const version = nextVersion(now?.version);
        await txn.put(key, { value, version });
        return { ok: true, version };
      };
      return typeof storage.transaction === "function" ? storage.transaction(write) : write(storage);
    },
    async delete(key) {
      await storage.delete(key);
    },
  };
}
