// A KvHost over Deno KV (`await Deno.openKv()`).
//
// Deno KV is strongly consistent and has real compare-and-swap:
// `kv.atomic().check({ key, versionstamp })` fails the commit when the key
// moved, and the entry's versionstamp is the version this adapter reports.
//
// A Deno KV value is at most 64 KiB, and a 25,000-character memory can be
// 100 KB of UTF-8, so values are split into chunks of at most 60,000 bytes
// under `[...prefix, key, "chunk", i]`, written in the same atomic commit as
// the main entry `[...prefix, key]`, which holds the chunk count and a write
// id that every chunk repeats. A read that sees chunks of another write (a
// writer committed between its reads) reads again. `delete` removes the main
// entry and all its chunks in one atomic commit, checked against the main
// entry's versionstamp so that no chunk of a concurrent write is left behind.

const CHUNK_BYTES = 60_000;
const MAX_READ_ATTEMPTS = 5;
const MAX_DELETE_ATTEMPTS = 5;

function mainKey(prefix, key) {
  return [...prefix, key];
}

function chunkKey(prefix, key, i) {
  return [...prefix, key, "chunk", i];
}

function split(value) {
  const bytes = new TextEncoder().encode(value);
  const chunks = [];
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) chunks.push(bytes.slice(i, i + CHUNK_BYTES));
  return chunks;
}

function isHead(v) {
  return v && typeof v === "object" && Number.isInteger(v.chunks) && v.chunks >= 0 && typeof v.id === "string";
}

/**
 * @param {Deno.Kv} kv
 * @param {{ prefix?: Deno.KvKey }} [options] key prefix, default ["memdoc"]
 */
export function denoKvHost(kv, options = {}) {
  if (!kv || typeof kv.get !== "function" || typeof kv.atomic !== "function") {
    throw new TypeError("denoKvHost needs a Deno.Kv (await Deno.openKv())");
  }
  const prefix = options.prefix ?? ["memdoc"];

  async function readOnce(key) {
    const head = await kv.get(mainKey(prefix, key));
    if (head.versionstamp === null) return { found: null };
    if (!isHead(head.value)) {
      throw new Error(`Deno KV key ${JSON.stringify(key)} is not a memdoc record`);
    }
    const keys = [];
    for (let i = 0; i < head.value.chunks; i += 1) keys.push(chunkKey(prefix, key, i));
    const parts = [];
    // getMany takes at most 10 keys.
    for (let i = 0; i < keys.length; i += 10) parts.push(...(await kv.getMany(keys.slice(i, i + 10))));
    if (parts.some((p) => !p.value || p.value.id !== head.value.id || !(p.value.bytes instanceof Uint8Array))) {
      return { torn: true };
    }
    const total = parts.reduce((n, p) => n + p.value.bytes.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      bytes.set(p.value.bytes, at);
      at += p.value.bytes.length;
    }
    return { found: { value: new TextDecoder().decode(bytes), version: head.versionstamp, chunks: head.value.chunks } };
  }

  async function read(key) {
    for (let attempt = 0; attempt < MAX_READ_ATTEMPTS; attempt += 1) {
      const got = await readOnce(key);
      if (!got.torn) return got.found;
    }
    throw new Error(`Deno KV key ${JSON.stringify(key)} kept changing while it was read`);
  }

  return {
    async get(key) {
      const found = await read(key);
      return found ? { value: found.value, version: found.version } : null;
    },
    async put(key, value, condition) {
      const expected = condition ? condition.expectedVersion : null;
      const head = await kv.get(mainKey(prefix, key));
      if (head.versionstamp !== expected) return { ok: false };
      const oldChunks = isHead(head.value) ? head.value.chunks : 0;
      const chunks = split(value);
      const id = crypto.randomUUID();
      const op = kv.atomic().check({ key: mainKey(prefix, key), versionstamp: expected });
      op.set(mainKey(prefix, key), { chunks: chunks.length, id });
      chunks.forEach((bytes, i) => op.set(chunkKey(prefix, key, i), { id, bytes }));
      for (let i = chunks.length; i < oldChunks; i += 1) op.delete(chunkKey(prefix, key, i));
      const result = await op.commit();
      return result.ok ? { ok: true, version: result.versionstamp } : { ok: false };
    },
    async delete(key) {
      for (let attempt = 0; attempt < MAX_DELETE_ATTEMPTS; attempt += 1) {
        const head = await kv.get(mainKey(prefix, key));
        if (head.versionstamp === null) return;
        if (!isHead(head.value)) {
          throw new Error(`Deno KV key ${JSON.stringify(key)} is not a memdoc record`);
        }
        const op = kv.atomic().check({ key: mainKey(prefix, key), versionstamp: head.versionstamp });
        op.delete(mainKey(prefix, key));
        for (let i = 0; i < head.value.chunks; i += 1) op.delete(chunkKey(prefix, key, i));
        if ((await op.commit()).ok) return;
      }
      throw new Error(`Deno KV key ${JSON.stringify(key)} kept changing while it was deleted`);
    },
  };
}
