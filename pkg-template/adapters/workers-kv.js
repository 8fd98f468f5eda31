// A KvHost over a Cloudflare Workers KV namespace binding.
//
// Workers KV has no compare-and-swap and is eventually consistent: a write is
// usually visible at once where it was made, and can take 60 s or more to be
// seen elsewhere. This adapter keeps a version in each key's metadata and
// checks it before writing, which catches every conflict that a fresh read
// can see; two writers that read the same version within the same moment (or
// in different locations before the first write propagates) can both succeed,
// and the later write wins. Route a memory that several writers share through
// a Durable Object (durable-object.js) when lost updates are unacceptable.

function nextVersion(previous) {
  const n = previous ? Number.parseInt(String(previous).split(".")[0], 10) || 0 : 0;
  return `${n + 1}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** @param {KVNamespace} namespace */
export function workersKvHost(namespace) {
  if (!namespace || typeof namespace.getWithMetadata !== "function" || typeof namespace.put !== "function" || typeof namespace.delete !== "function") {
    throw new TypeError("workersKvHost needs a Workers KV namespace binding");
  }
  async function current(key) {
    const { value, metadata } = await namespace.getWithMetadata(key, { type: "text" });
    if (value === null) return null;
    const version = metadata && typeof metadata.memdocVersion === "string" ? metadata.memdocVersion : null;
    if (version === null) {
      throw new Error(`Workers KV key ${JSON.stringify(key)} was not written by memdoc (no version in its metadata)`);
    }
    return { value, version };
  }
  return {
    get: current,
    async put(key, value, condition) {
      const expected = condition ? condition.expectedVersion : null;
      const now = await current(key);
      if ((now ? now.version : null) !== expected) return { ok: false };
      const version = nextVersion(now?.version);
      await namespace.put(key, value, { metadata: { memdocVersion: version } });
      return { ok: true, version };
    },
    async delete(key) {
      await namespace.delete(key);
    },
  };
}
