// The memories' host (`storage.host`): the records of the engine's store,
// each memory's head and the snapshots it names, and a task memory's under
// the store's TASK_PREFIX. The engine's `MemoryStore` reads and writes them,
// also for what is done to a memory's records whole: a backup's export and
// import, a purge of a head the store may refuse, the stored revision of
// such a head (docs/record-format.md, "Export, import and purge"). No
// JavaScript names their keys or reads their format.
import { MemoryStore } from "memdoc";

/** The key prefix of task memories' records (team-scope memories of the engine under their own prefix). */
export const TASK_PREFIX = "memdoc-task";

/** The engine's store of a team's memories (of its task memories with `keyPrefix: TASK_PREFIX`). */
export const memoryStore = (storage, options) => new MemoryStore(storage.host, options);

/** `use(store)` with a store of the team's memories (`options` as memoryStore's) made for it and freed after. */
async function withStore(storage, options, use) {
  const store = memoryStore(storage, options);
  try {
    return await use(store);
  } finally {
    store.free();
  }
}

/** Delete a memory's head, even one the store refuses, then the snapshots it names. */
export const purgeStored = (storage, ref) => withStore(storage, undefined, (store) => store.purge(ref));

/** Delete a task memory's head, then the snapshots it names. */
export const purgeTask = (storage, id) => withStore(storage, { keyPrefix: TASK_PREFIX }, (store) => store.purge({ scope: "team", id }));

/** The revision of a memory's head as stored (0 when absent or unreadable): for a purge of a memory the store refuses. */
export const storedRevision = (storage, ref) => withStore(storage, undefined, (store) => store.storedRevision(ref));

/**
 * A memory's records as stored, for a backup: `{ head, snapshots: [{
 * revision, key, value }] }` (each kept snapshot its head names that is
 * there), or null when it has no head.
 */
export const storedRecords = (storage, ref) => withStore(storage, undefined, (store) => store.exportRecords(ref));

/**
 * Write a memory's records (storedRecords's) as `ref`'s, the snapshots
 * before the head, each replacing what an abandoned import left; answers
 * the head's revision. Records that are not a head of `ref` and exactly
 * the snapshots it names are refused, with the bad record's `key`, before
 * anything is written. `storage` may be any object with a `host`.
 */
export const importStored = (storage, ref, records) => withStore(storage, undefined, (store) => store.importRecords(ref, records));
