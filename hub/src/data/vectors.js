// The `vectors` namespace: the vectors of a memory's items, one record per
// memory, embedder and text, in chunks
// ["vectors", scope, id, model, textHash, chunk] (`model` the embedder's id
// with "/" and "%" escaped, keys in team storage holding none; `chunk` four
// digits), each chunk `{ chunks, count, dimensions, keys, bytes }`: the
// record's number of chunks, this chunk's `count` items, their package cache
// keys (`vectorKey`) and their vectors as bytes (Durable Object storage and
// Deno KV both keep Uint8Array). A record is read with one list by its
// prefix. The indexer writes them (embedding.js); recall reads them
// (recall-vectors.js); a purge deletes them. A task memory's items have
// their own entries, one per item, ["vectors", "task", key] (the package's
// vector cache, `taskVectorCache`). The entries of two parts
// ["vectors", key] are an earlier layout's, deleted by the sweep.

const escaped = (key) => key.replaceAll("%", "%25").replaceAll("/", "%2F");

/**
 * The most bytes of one chunk's vectors and keys: half of the smaller
 * host's value limit (Deno KV's 64 KiB; a Durable Object's is 128 KiB).
 */
export const CHUNK_BYTES = 32 * 1024;

/** Chunks a write holds at most (Deno KV's atomic writes hold at most 800 KiB). */
const CHUNKS_PER_WRITE = 16;

const memoryPrefix = (ref) => ["vectors", ref.scope, ref.id];
const modelPrefix = (ref, model) => [...memoryPrefix(ref), escaped(model)];
const recordPrefix = (ref, model, hash) => [...modelPrefix(ref, model), hash];
const chunkKey = (ref, model, hash, n) => [...recordPrefix(ref, model, hash), String(n).padStart(4, "0")];

const bytesOf = (vector) => new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
const vectorOf = (bytes) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

/**
 * A record from its chunks (in key order): `{ keys, dimensions, vectors }`,
 * the vectors concatenated in the keys' order; undefined when a chunk is
 * missing or does not fit the others (a record being written: its chunk 0
 * is written last).
 */
function assemble(chunks) {
  const first = chunks[0]?.value;
  if (first === undefined || chunks[0].key.at(-1) !== "0000" || chunks.length < first.chunks) return undefined;
  const keys = [];
  const vectors = new Float32Array(chunks.slice(0, first.chunks).reduce((n, c) => n + (c.value?.count ?? 0), 0) * first.dimensions);
  for (let n = 0; n < first.chunks; n += 1) {
    const { key, value } = chunks[n];
    if (key.at(-1) !== String(n).padStart(4, "0") || value?.dimensions !== first.dimensions || !(value.bytes instanceof Uint8Array)) return undefined;
    if (value.keys.length !== value.count || value.bytes.byteLength !== value.count * first.dimensions * 4) return undefined;
    vectors.set(vectorOf(value.bytes), keys.length * first.dimensions);
    keys.push(...value.keys);
  }
  return { keys, dimensions: first.dimensions, vectors };
}

/**
 * The records of `ref` by `model`: `[{ hash, record }]`, `record` as
 * `assemble`'s (undefined when incomplete). One storage read.
 */
export async function readModelVectors(storage, ref, model) {
  return grouped(await storage.list(modelPrefix(ref, model)));
}

/**
 * The vectors by item key (`vectorKey`) that `records` (`readModelVectors`')
 * hold, those of the record of text `hash` first.
 */
export function vectorsByKey(records, hash) {
  const known = new Map();
  const ordered = [...records.filter((r) => r.hash === hash), ...records.filter((r) => r.hash !== hash)];
  for (const { record } of ordered) {
    if (record === undefined) continue;
    record.keys.forEach((key, i) => {
      if (!known.has(key)) known.set(key, record.vectors.subarray(i * record.dimensions, (i + 1) * record.dimensions));
    });
  }
  return known;
}

/** One embedder's chunks (in key order) grouped by text: `[{ hash, record }]`. */
function grouped(chunks) {
  const byHash = new Map();
  for (const c of chunks) {
    if (!byHash.has(c.key[4])) byHash.set(c.key[4], []);
    byHash.get(c.key[4]).push(c);
  }
  return [...byHash].map(([hash, parts]) => ({ hash, record: assemble(parts) }));
}

/** The storage keys of every record `ref` holds (every embedder's, every text's): one storage read. */
export async function memoryVectorKeys(storage, ref) {
  return (await storage.list(memoryPrefix(ref))).map((c) => c.key);
}

/**
 * Write the record of `ref`'s text `hash` by `model` (`vectors`, the
 * vectors of `keys` concatenated, `dimensions` each), its chunk 0 last,
 * then delete `stale` (storage keys of earlier records) but its own.
 */
export async function writeVectors(storage, ref, model, hash, { keys, vectors, dimensions }, stale = []) {
  const longest = keys.reduce((n, k) => Math.max(n, k.length), 0);
  const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / (dimensions * 4 + longest * 2 + 8)));
  const chunks = Math.max(1, Math.ceil(keys.length / perChunk));
  const entries = [];
  for (let n = 0; n < chunks; n += 1) {
    const part = keys.slice(n * perChunk, (n + 1) * perChunk);
    const bytes = bytesOf(vectors.subarray(n * perChunk * dimensions, (n * perChunk + part.length) * dimensions));
    entries.push([chunkKey(ref, model, hash, n), { chunks, count: part.length, dimensions, keys: part, bytes }]);
  }
  for (let at = 1; at < entries.length; at += CHUNKS_PER_WRITE) await storage.putMany(entries.slice(at, at + CHUNKS_PER_WRITE));
  await storage.putMany(entries.slice(0, 1));
  await deleteVectorsBut(storage, ref, model, hash, stale);
}

/** Delete the storage keys `stale` but those of the record of `ref`'s text `hash` by `model`. */
export async function deleteVectorsBut(storage, ref, model, hash, stale) {
  const own = recordPrefix(ref, model, hash).join("/");
  const old = stale.filter((k) => k.slice(0, 5).join("/") !== own);
  if (old.length > 0) await storage.deleteMany(old);
}

/** Delete every vector record of `ref` (its purge). */
export async function deleteMemoryVectors(storage, ref) {
  const keys = await memoryVectorKeys(storage, ref);
  if (keys.length > 0) await storage.deleteMany(keys);
}

/**
 * Marks a team whose entries of the earlier layout are deleted, so that no
 * sweep after the first lists the namespace again. Not a record's key: no
 * scope is named `layout`.
 */
const RECORDS_ONLY = ["vectors", "layout", "records"];

/**
 * Entries of the namespace one page of that deletion reads (records' chunks
 * of CHUNK_BYTES among them: 2 MiB at most).
 */
export const LAYOUT_PAGE = 64;

/**
 * Delete the entries of the earlier layout, one per item (["vectors", key]),
 * once per team, a page of LAYOUT_PAGE entries at a time (from the last
 * key back): how many (0 once the team is marked).
 */
export async function deleteItemVectors(storage) {
  if ((await storage.get(RECORDS_ONLY)) === true) return 0;
  let deleted = 0;
  for (let end; ; ) {
    const page = await storage.list(["vectors"], { reverse: true, limit: LAYOUT_PAGE, ...(end ? { end } : {}) });
    const old = page.filter((e) => e.key.length === 2).map((e) => e.key);
    if (old.length > 0) await storage.deleteMany(old);
    deleted += old.length;
    if (page.length < LAYOUT_PAGE) break;
    end = page[page.length - 1].key;
  }
  await storage.put(RECORDS_ONLY, true);
  return deleted;
}

/** The package's vector cache (`{ getMany, setMany }`) of the team's task memories. */
export function taskVectorCache(storage) {
  const entry = (key) => ["vectors", "task", escaped(key)];
  return {
    async getMany(keys) {
      const distinct = [...new Set(keys)];
      const values = await storage.getMany(distinct.map(entry));
      const byKey = new Map(distinct.map((key, i) => [key, values[i]]));
      return keys.map((key) => {
        const bytes = byKey.get(key);
        return bytes instanceof Uint8Array ? vectorOf(bytes) : undefined;
      });
    },
    async setMany(entries) {
      await storage.putMany(entries.map(([key, vector]) => [entry(key), bytesOf(vector)]));
    },
  };
}
