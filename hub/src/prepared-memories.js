// Memories made ready for recall (the engine's PreparedMemory, docs/API.md):
// parsed, their items listed and their words looked at once, then recalled
// from by every request that asks (a memory's recall, each memory of a team
// recall) and listed for the indexer, instead of parsed again for each.
// Kept by team and memory for the text they were made from (text-cache.js:
// a prepared memory is a function of the text alone), with the item
// vectors of one embedder (recall-vectors.js reads them), held in the
// memory (`holdVectors`): checked once, then recalled with query after
// query, neither copied nor checked again. At most PREPARED_MEMORY_BYTES,
// the vectors held counted with their memory, freed when let go. An entry
// is used synchronously between two lookups, so the one let go is never in
// use.
import { PreparedMemory } from "memdoc";

import { TextCache } from "./text-cache.js";

/** Bytes the prepared memories, their vectors and the texts they are for take at most in this process. */
export const PREPARED_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * WebAssembly bytes a prepared memory takes per UTF-16 unit of its text
 * (its items' texts and lines, the folded words, their parts and stems),
 * with a margin: 6.5 measured over 2,000 memories of 5,000 characters of
 * short words, recalled from.
 */
const BYTES_PER_UNIT = 8;

/**
 * `{ memory, held }` by team and memory, the memory freed when let go;
 * `held`: the embedder, dimensions and items lacking (zeros, matched by
 * words) of the vectors it holds, null when it holds none to recall with.
 */
const memories = new TextCache(PREPARED_MEMORY_BYTES, (entry) => entry.memory.free());

const keyOf = (storage, ref) => `${storage.id}\u0000${ref.scope}/${ref.id}`;

/**
 * `use(memory, entry)` with the prepared memory of `ref`'s `content`: its
 * result. One held since before a panic replaced the WebAssembly instance
 * (it throws `internal/panic`) is dropped and made again once; a panic of a
 * fresh one is thrown. `entry` is null for a memory too large to be kept
 * (freed after `use`).
 * @template T
 * @param {{ id: string }} storage the team's
 * @param {{ scope: string, id: string }} ref
 * @param {string} content
 * @param {(memory: PreparedMemory, entry: { memory: PreparedMemory, held: { model: string, dimensions: number, missing: number } | null } | null) => T} use synchronous
 * @returns {T}
 */
export function withPreparedMemory(storage, ref, content, use) {
  const key = keyOf(storage, ref);
  for (;;) {
    let entry = memories.get(key, content);
    const fresh = entry === undefined;
    let kept = true;
    if (fresh) {
      entry = { memory: new PreparedMemory(content), held: null };
      kept = memories.set(key, content, entry, bytesOf(content));
    }
    try {
      return use(entry.memory, kept ? entry : null);
    } catch (error) {
      if (fresh || error?.code !== "internal/panic") throw error;
      memories.delete(key);
    } finally {
      // A memory larger than a quarter of the cache is used once, not kept.
      if (!kept) entry.memory.free();
    }
  }
}

/** The bytes a prepared memory of `content` takes with `vectors` numbers held. */
const bytesOf = (content, vectors = 0) => content.length * (BYTES_PER_UNIT + 2) + vectors * 4;

/** The text of every item of `ref`'s `content`, in the engine's order (recallItems), from its prepared memory. */
export function memoryItems(storage, ref, content) {
  return withPreparedMemory(storage, ref, content, (memory) => memory.items);
}

/**
 * The items the vectors by `model` of `dimensions` held by the prepared
 * memory of `ref`'s `content` lack; undefined when it holds none of them
 * (or no memory of that text is kept).
 */
export function heldVectors(storage, ref, content, model, dimensions) {
  const held = memories.get(keyOf(storage, ref), content)?.held;
  return held?.model === model && held.dimensions === dimensions ? held.missing : undefined;
}

/**
 * The recall of `use(memory, vectors)` from the prepared memory of `ref`'s
 * `content` with the item vectors by `model`: `read`
 * (`readItemVectors`'s, of `dimensions` numbers each) held first, or, null,
 * those the memory holds already (`heldVectors` said so, with no turn
 * since; undefined when it does not, made again after a panic).
 * `vectors` is null when the memory holds them (its
 * `recallWithHeldVectors`), else the vectors to give it: a memory too large
 * to be kept with them is given them for this recall alone.
 * @template T
 * @param {{ vectors: Float32Array, missing: number } | null} read
 * @param {(memory: PreparedMemory, vectors: Float32Array | null) => T} use synchronous
 * @returns {T | undefined}
 */
export function withItemVectors(storage, ref, content, model, dimensions, read, use) {
  return withPreparedMemory(storage, ref, content, (memory, entry) => {
    if (read === null) return heldVectors(storage, ref, content, model, dimensions) === undefined ? undefined : use(memory, null);
    if (entry === null || !memories.resize(keyOf(storage, ref), bytesOf(content, read.vectors.length))) return use(memory, read.vectors);
    memory.holdVectors(model, read.vectors, dimensions);
    entry.held = { model, dimensions, missing: read.missing };
    return use(memory, null);
  });
}

/**
 * Once `ref` is indexed: vectors held by its prepared memory that lack
 * items are recalled with no more, and its next recall reads them again
 * (and holds them instead).
 */
export function forgetMissingVectors(storage, ref) {
  const entry = memories.peek(keyOf(storage, ref));
  if (entry?.held?.missing > 0) entry.held = null;
}
