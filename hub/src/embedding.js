// Recall by meaning on the hub (docs/HUB.md, "Recall by meaning"): the
// team's item vectors, kept in the team's storage under
// ["vectors", <embedder id:text hash:length>] (the package's cache key), the
// indexing of a memory's new items after a save, and the count of items not
// yet embedded (`indexLag` of the stats). The embedder itself comes from the
// runtime (worker.js, deno.js), built from the settings.
import { recallItems, vectorKey } from "memdoc";

import { serially } from "./serial.js";

/** Keys in team storage hold no "/": a model id like "@cf/baai/…" is escaped. */
const storageKey = (key) => ["vectors", key.replaceAll("%", "%25").replaceAll("/", "%2F")];

/** A vector as bytes (Durable Object storage and Deno KV both keep Uint8Array). */
const bytesOf = (vector) => new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
const vectorOf = (bytes) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

/** The package's vector cache (`{ getMany, setMany }`) over a team's storage. */
export function teamVectorCache(storage) {
  return {
    async getMany(keys) {
      // The distinct keys, read together (a memory's items in a few storage reads, not one each).
      const distinct = [...new Set(keys)];
      const values = await storage.getMany(distinct.map(storageKey));
      const byKey = new Map(distinct.map((key, i) => [key, values[i]]));
      return keys.map((key) => {
        const bytes = byKey.get(key);
        return bytes instanceof Uint8Array ? vectorOf(bytes) : undefined;
      });
    },
    async setMany(entries) {
      for (const [key, vector] of entries) await storage.put(storageKey(key), bytesOf(vector));
    },
  };
}

/** The items of `content` whose vector the team does not hold yet (each distinct text once). */
export async function unembedded(embedder, storage, content) {
  const missing = new Map();
  const items = recallItems(content);
  const keys = items.map((item) => vectorKey(embedder.id, item));
  const cached = await teamVectorCache(storage).getMany(keys);
  keys.forEach((key, i) => {
    if (cached[i] === undefined) missing.set(key, items[i]);
  });
  return missing;
}

/** The most texts one indexing call gives the embedder. */
const BATCH = 100;

/**
 * Embed the items of `content` the team does not hold yet and keep their
 * vectors. Runs after a save has answered: its failure is logged, never
 * the save's.
 */
export async function indexMemory(embedder, storage, content) {
  const missing = [...(await unembedded(embedder, storage, content))];
  const cache = teamVectorCache(storage);
  for (let at = 0; at < missing.length; at += BATCH) {
    const part = missing.slice(at, at + BATCH);
    const vectors = await embedder.embed(part.map(([, text]) => text), "document");
    if (!Array.isArray(vectors) || vectors.length !== part.length) throw new Error(`the embedder gave ${vectors?.length ?? "no"} vectors for ${part.length} texts`);
    await cache.setMany(part.map(([key], i) => [key, vectors[i] instanceof Float32Array ? vectors[i] : Float32Array.from(vectors[i])]));
  }
  return missing.length;
}

/**
 * Index a saved memory after its save answered (`background`, the
 * runtime's waitUntil), one memory's indexing at a time per team storage.
 */
export function indexAfterSave({ embedder, background, storage, store, ref, log }) {
  if (!embedder) return;
  const next = serially(storage, "index", async () => {
    const loaded = await store.load(ref);
    await indexMemory(await embedder(), storage, loaded.content);
  });
  background?.(next.catch((error) => log?.(`memdoc hub: indexing ${ref.scope}/${ref.id} failed: ${error?.message ?? error}`)));
}
