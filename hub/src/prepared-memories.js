// Memories made ready for recall (the engine's PreparedMemory, docs/API.md):
// parsed, their items listed and their words looked at once, then recalled
// from by every request that asks (a memory's recall, each memory of a team
// recall) and listed for the indexer, instead of parsed again for each.
// Kept by team and memory for the text they were made from (text-cache.js:
// a prepared memory is a function of the text alone, whatever the
// embedder), at most PREPARED_MEMORY_BYTES, freed when let go. An entry is
// used synchronously between two lookups, so the one let go is never in use.
import { PreparedMemory } from "memdoc";

import { TextCache } from "./text-cache.js";

/** Bytes the prepared memories (and the texts they are for) take at most in this process. */
export const PREPARED_MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * WebAssembly bytes a prepared memory takes per UTF-16 unit of its text
 * (its items' texts and lines, the folded words, their parts and stems),
 * with a margin: 6.5 measured over 2,000 memories of 5,000 characters of
 * short words, recalled from.
 */
const BYTES_PER_UNIT = 8;

/** Prepared memories by team and memory, freed when let go. */
const memories = new TextCache(PREPARED_MEMORY_BYTES, (memory) => memory.free());

/**
 * `use(memory)` with the prepared memory of `ref`'s `content`: its result. One held
 * since before a panic replaced the WebAssembly instance (it throws
 * `internal/panic`) is dropped and made again once; a panic of a fresh one
 * is thrown.
 * @template T
 * @param {{ id: string }} storage the team's
 * @param {{ scope: string, id: string }} ref
 * @param {string} content
 * @param {(memory: PreparedMemory) => T} use synchronous
 * @returns {T}
 */
export function withPreparedMemory(storage, ref, content, use) {
  const key = `${storage.id}\u0000${ref.scope}/${ref.id}`;
  for (;;) {
    let memory = memories.get(key, content);
    const fresh = memory === undefined;
    let kept = true;
    if (fresh) {
      memory = new PreparedMemory(content);
      kept = memories.set(key, content, memory, content.length * (BYTES_PER_UNIT + 2));
    }
    try {
      return use(memory);
    } catch (error) {
      if (fresh || error?.code !== "internal/panic") throw error;
      memories.delete(key);
    } finally {
      // A memory larger than a quarter of the cache is used once, not kept.
      if (!kept) memory.free();
    }
  }
}

/** The text of every item of `ref`'s `content`, in the engine's order (recallItems), from its prepared memory. */
export function memoryItems(storage, ref, content) {
  return withPreparedMemory(storage, ref, content, (memory) => memory.items);
}
