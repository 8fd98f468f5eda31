// Deleting and restoring (docs/HUB.md, "Delete and restore").
//
// A deleted memory keeps its content and history where they are (the
// memories' host) and gets a marker (data/deleted.js),
// `{scope, id, revision, deletedAt, deletedBy, purgeAfter}`; while
// the marker is there every memory route answers 404 (a save 409
// `memory/deleted`) and the team directory does not list it. Restoring
// removes the marker; purging (at once with ?purge=true, or by the scheduled
// sweep after MEMDOC_HUB_DELETED_RETENTION_DAYS) deletes the head record and
// the snapshots it names, then the marker.
//
// A save, a delete, a restore and a purge of one memory run one at a time
// (`exclusive`, data/memory.js): the hub serves a team from one place (its Durable
// Object; the one Deno process of its KV file), so a lock in memory is
// enough, and a delete never overtakes a save it raced with.
//
// The routes are routes/deletion.js's.
import { appendAudit } from "./audit.js";
import { anyMarker, deleteMarker, deleteMarkerAndEntry, listMarkers, readMarker, writeMarker } from "./data/deleted.js";
import { deleteEntry, exclusive, recordMemory } from "./data/memory.js";
import { purgeStored } from "./data/memories.js";
import { deleteMemoryVectors } from "./data/vectors.js";
import { HubProblem } from "./problem.js";

export { exclusive } from "./data/memory.js";
export { storedRevision } from "./data/memories.js";
export { readMarker as deletedMarker, readMarkers as deletedMarkers } from "./data/deleted.js";

const DAY_MS = 86_400_000;
const tagOf = (ref) => `${ref.scope}/${ref.id}`;

/** The problem of a request for a deleted memory: a save is told why, anything else finds nothing. */
export function deletedProblem(action) {
  if (action === "save" || action === "revert") {
    return new HubProblem(409, "memory/deleted", "This memory was deleted: an admin (or, for a user memory, its member) can restore it with POST {m}/restore.");
  }
  return new HubProblem(404, "memory/not-found", "There is no such memory.");
}

/** Delete a memory's content and history and its item vectors, then its marker and directory entry. */
export async function purgeMemory(storage, ref) {
  await purgeStored(storage, ref);
  await deleteMemoryVectors(storage, ref);
  await deleteMarkerAndEntry(storage, ref);
}

/**
 * The scheduled purge: every deleted memory past its `purgeAfter`, audited
 * as `purge` by the sweep.
 * @returns {Promise<number>} the memories purged
 */
export async function purgeExpired({ storage, auditMax, now = Date.now() }) {
  let purged = 0;
  for (const value of await listMarkers(storage)) {
    if (Date.parse(value.purgeAfter) > now) continue;
    const ref = { scope: value.scope, id: value.id };
    await exclusive(storage, ref, async () => {
      const current = await readMarker(storage, ref);
      if (current === undefined || Date.parse(current.purgeAfter) > now) return;
      await purgeMemory(storage, ref);
      purged += 1;
      await appendAudit(storage, { member: null, keyId: null, action: "purge", target: tagOf(ref), revision: current.revision, status: 204, by: "sweep" }, auditMax);
    });
  }
  return purged;
}

/**
 * Mark a memory at `revision` deleted by `member`, to be purged after
 * `retentionDays`, and take it out of the directory.
 */
export async function markDeleted(storage, ref, { revision, member, retentionDays }) {
  const now = Date.now();
  const record = { ...ref, revision, deletedAt: new Date(now).toISOString(), deletedBy: member, purgeAfter: new Date(now + retentionDays * DAY_MS).toISOString() };
  await writeMarker(storage, record);
  await deleteEntry(storage, ref);
}

/** Restore a deleted memory: back in the directory, its marker gone. */
export async function unmarkDeleted(storage, ref) {
  await recordMemory(storage, ref);
  await deleteMarker(storage, ref);
}

/** Whether the team has deleted memories waiting for their purge. */
export const hasDeleted = anyMarker;
