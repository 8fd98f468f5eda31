// The `memory` namespace: ["memory", scope, id], the team's directory of
// its memories `{ since }` (directory.js), and the queue of each memory: a
// save, a delete, a restore and a purge of one memory run one at a time.
import { serially } from "./serial.js";

/** The storage key of a memory's directory entry (deleted.js removes it with a marker). */
export const entryKey = (ref) => ["memory", ref.scope, ref.id];

/** Note that `ref` exists (put only if absent: one write per memory, ever). */
export const recordMemory = (storage, ref) => storage.create(entryKey(ref), { since: new Date().toISOString() });

/** A memory's entry `{ since }`, undefined when the directory does not list it. */
export const readEntry = (storage, ref) => storage.get(entryKey(ref));

/** Take a memory out of the directory. */
export const deleteEntry = (storage, ref) => storage.delete(entryKey(ref));

/**
 * The memories listed, in key order (scope, then id): `[{ scope, id, since }]`;
 * only those of `scope` when given, at most `limit`.
 */
export async function listEntries(storage, { scope, limit } = {}) {
  const found = await storage.list(scope === undefined ? ["memory"] : ["memory", scope], limit === undefined ? {} : { limit });
  return found.map((e) => ({ scope: e.key[1], id: e.key[2], since: e.value.since }));
}

/** The entries of `entries` (each `{ scope, id, since }`), for a batch of writes. */
export const memoryEntries = (entries) => entries.map((m) => [entryKey(m), { since: m.since }]);

/** Run `task` when no other task of the same memory runs (in this process). */
export const exclusive = (storage, ref, task) => serially(storage, `memory ${ref.scope}/${ref.id}`, task);
