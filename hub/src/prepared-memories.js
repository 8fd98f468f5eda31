// Memories made ready for recall (the engine's PreparedMemory, docs/API.md):
// parsed, their items listed and their words looked at once, then recalled
// from by every request that asks (a memory's recall, each memory of a team
// recall) and listed for the indexer, instead of parsed again for each.
// A bounded cache per process, by team and the memory's text (a prepared
// memory is a function of the text alone, whatever the embedder: another
// revision is another text, so an entry never goes stale), the least
// recently used freed first; never shared across teams. An entry is used
// synchronously between two lookups, so the one evicted is never in use.
import { PreparedMemory } from "memdoc";

/** Bytes the prepared memories (and their texts, as keys) take at most in this process. */
export const PREPARED_MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * WebAssembly bytes a prepared memory takes per UTF-16 unit of its text
 * (its items' texts and lines, the folded words, their parts and stems),
 * with a margin: 6.5 measured over 2,000 memories of 5,000 characters of
 * short words, recalled from.
 */
const BYTES_PER_UNIT = 8;

/** key → { memory, bytes }, the least recently used first. */
const held = new Map();
let total = 0;

function evict(key) {
  const entry = held.get(key);
  held.delete(key);
  total -= entry.bytes;
  entry.memory.free();
}

/** The prepared memory of `content` for the team of `storage`, made if not held. */
function prepared(storage, content) {
  const key = `${storage.id}\u0000${content}`;
  const known = held.get(key);
  if (known !== undefined) {
    held.delete(key);
    held.set(key, known);
    return { key, memory: known.memory, fresh: false };
  }
  const memory = new PreparedMemory(content);
  const bytes = content.length * (BYTES_PER_UNIT + 2);
  // A memory larger than a quarter of the cache is used once, not kept.
  if (bytes > PREPARED_MEMORY_BYTES / 4) return { key: null, memory, fresh: true };
  held.set(key, { memory, bytes });
  total += bytes;
  for (const oldest of held.keys()) {
    if (total <= PREPARED_MEMORY_BYTES || oldest === key) break;
    evict(oldest);
  }
  return { key, memory, fresh: true };
}

/**
 * `use(memory)` with the prepared memory of `content`: its result. One held
 * since before a panic replaced the WebAssembly instance (it throws
 * `internal/panic`) is dropped and made again once; a panic of a fresh one
 * is thrown.
 * @template T
 * @param {{ id: string }} storage the team's
 * @param {string} content
 * @param {(memory: PreparedMemory) => T} use synchronous
 * @returns {T}
 */
export function withPreparedMemory(storage, content, use) {
  for (;;) {
    const { key, memory, fresh } = prepared(storage, content);
    try {
      return use(memory);
    } catch (error) {
      if (fresh || error?.code !== "internal/panic") throw error;
      evict(key);
    } finally {
      if (key === null) memory.free();
    }
  }
}

/** The text of every item of `content`, in the engine's order (recallItems), from its prepared memory. */
export function memoryItems(storage, content) {
  return withPreparedMemory(storage, content, (memory) => memory.items);
}
