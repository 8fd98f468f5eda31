// Memories made ready for recall (the engine's PreparedMemory, docs/API.md):
// parsed, their items listed and their words looked at once, then recalled
// from by every request that asks (a memory's recall, each memory of a team
// recall) and listed for the indexer, instead of parsed again for each.
// A bounded cache per process, by team and memory, holding the prepared
// memory of the text it was last asked for (a prepared memory is a function
// of the text alone, whatever the embedder: an entry answers only for that
// very text, so it never goes stale), the least recently used freed first;
// never shared across teams. An entry is used
// synchronously between two lookups, so the one evicted is never in use.
import { PreparedMemory } from "memdoc";

/** Bytes the prepared memories (and the texts they are for) take at most in this process. */
export const PREPARED_MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * WebAssembly bytes a prepared memory takes per UTF-16 unit of its text
 * (its items' texts and lines, the folded words, their parts and stems),
 * with a margin: 6.5 measured over 2,000 memories of 5,000 characters of
 * short words, recalled from.
 */
const BYTES_PER_UNIT = 8;

/**
 * Per team (its storage's id), its memories (`scope/id`) → entry `{ team,
 * ref, content, memory, bytes }`. A text is compared with the entry's, not
 * hashed as a key: memories are thousands of characters, loaded afresh each
 * time.
 */
const teams = new Map();
/** Every entry, the least recently used first. */
const recency = new Set();
let total = 0;

function evict(entry) {
  recency.delete(entry);
  const memories = teams.get(entry.team);
  memories.delete(entry.ref);
  if (memories.size === 0) teams.delete(entry.team);
  total -= entry.bytes;
  entry.memory.free();
}

/** The prepared memory of `ref`'s `content` for the team of `storage`, made if not held: `{ entry, memory, fresh }`, `entry` null when it is not kept. */
function prepared(storage, ref, content) {
  const name = `${ref.scope}/${ref.id}`;
  const known = teams.get(storage.id)?.get(name);
  if (known?.content === content) {
    recency.delete(known);
    recency.add(known);
    return { entry: known, memory: known.memory, fresh: false };
  }
  // Another text of the memory: the one held is freed.
  if (known !== undefined) evict(known);
  const memory = new PreparedMemory(content);
  const bytes = content.length * (BYTES_PER_UNIT + 2);
  // A memory larger than a quarter of the cache is used once, not kept.
  if (bytes > PREPARED_MEMORY_BYTES / 4) return { entry: null, memory, fresh: true };
  const entry = { team: storage.id, ref: name, content, memory, bytes };
  if (!teams.has(storage.id)) teams.set(storage.id, new Map());
  teams.get(storage.id).set(name, entry);
  recency.add(entry);
  total += bytes;
  for (const oldest of recency) {
    if (total <= PREPARED_MEMORY_BYTES || oldest === entry) break;
    evict(oldest);
  }
  return { entry, memory, fresh: true };
}

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
  for (;;) {
    const { entry, memory, fresh } = prepared(storage, ref, content);
    try {
      return use(memory);
    } catch (error) {
      if (fresh || error?.code !== "internal/panic") throw error;
      evict(entry);
    } finally {
      if (entry === null) memory.free();
    }
  }
}

/** The text of every item of `ref`'s `content`, in the engine's order (recallItems), from its prepared memory. */
export function memoryItems(storage, ref, content) {
  return withPreparedMemory(storage, ref, content, (memory) => memory.items);
}
