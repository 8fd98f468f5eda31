// Deleting and restoring (docs/HUB.md, "Delete and restore").
//
// A deleted memory keeps its content and history where they are (the
// memories' host) and gets a marker, ["deleted", scope, id] in the team's
// storage, `{scope, id, revision, deletedAt, deletedBy, purgeAfter}`; while
// the marker is there every memory route answers 404 (a save 409
// `memory/deleted`) and the team directory does not list it. Restoring
// removes the marker; purging (at once with ?purge=true, or by the scheduled
// sweep after MEMDOC_HUB_DELETED_RETENTION_DAYS) deletes the head record and
// the snapshots it names, then the marker.
//
// A save, a delete, a restore and a purge of one memory run one at a time
// (`exclusive`, serial.js): the hub serves a team from one place (its Durable
// Object; the one Deno process of its KV file), so a lock in memory is
// enough, and a delete never overtakes a save it raced with.
//
// The routes are routes/deletion.js's.
import { appendAudit } from "./audit.js";
import { recordMemory } from "./directory.js";
import { HubProblem } from "./problem.js";
import { serially } from "./serial.js";

const DAY_MS = 86_400_000;
const marker = (ref) => ["deleted", ref.scope, ref.id];
const tagOf = (ref) => `${ref.scope}/${ref.id}`;

/** Run `task` when no other task of the same memory runs (in this process). */
export const exclusive = (storage, ref, task) => serially(storage, `memory ${tagOf(ref)}`, task);

/** The deletion marker of a memory, or undefined when it is not deleted. */
export const deletedMarker = (storage, ref) => storage.get(marker(ref));

/** The deletion markers of `refs`, in one read where the storage allows. */
export const deletedMarkers = (storage, refs) => storage.getMany(refs.map(marker));

/** The problem of a request for a deleted memory: a save is told why, anything else finds nothing. */
export function deletedProblem(action) {
  if (action === "save" || action === "revert") {
    return new HubProblem(409, "memory/deleted", "This memory was deleted: an admin (or, for a user memory, its member) can restore it with POST {m}/restore.");
  }
  return new HubProblem(404, "memory/not-found", "There is no such memory.");
}

/** A head record as stored, parsed without the store's checks; null when it is not a JSON object. */
function rawHead(found) {
  try {
    const head = JSON.parse(found.value);
    return head !== null && typeof head === "object" ? head : null;
  } catch {
    return null;
  }
}

/**
 * Delete the head record under `head` in the memories' host and the
 * snapshots it names (head first: no head ever names a missing snapshot).
 * The record is read raw, not loaded, so a head the store refuses is
 * deleted too; only keys under its own `/rev/` are deleted as its snapshots.
 */
export async function deleteStored(storage, head) {
  const found = await storage.host.get(head);
  await storage.host.delete(head);
  const snapshots = found ? rawHead(found)?.snapshots : null;
  for (const s of Array.isArray(snapshots) ? snapshots : []) {
    if (typeof s?.key === "string" && s.key.startsWith(`${head}/rev/`)) await storage.host.delete(s.key);
  }
}

/** The revision of a memory's head as stored (0 when absent or unreadable): for a purge of a memory the store refuses. */
export async function storedRevision(storage, ref) {
  const found = await storage.host.get(`memdoc/${ref.scope}/${ref.id}`);
  const revision = found ? rawHead(found)?.revision : 0;
  return Number.isSafeInteger(revision) && revision > 0 ? revision : 0;
}

/** Delete a memory's content and history, then its marker and directory entry. */
export async function purgeMemory(storage, ref) {
  await deleteStored(storage, `memdoc/${ref.scope}/${ref.id}`);
  await storage.deleteMany([marker(ref), ["memory", ref.scope, ref.id]]);
}

/**
 * The scheduled purge: every deleted memory past its `purgeAfter`, audited
 * as `purge` by the sweep.
 * @returns {Promise<number>} the memories purged
 */
export async function purgeExpired({ storage, auditMax, now = Date.now() }) {
  let purged = 0;
  for (const { value } of await storage.list(["deleted"])) {
    if (Date.parse(value.purgeAfter) > now) continue;
    const ref = { scope: value.scope, id: value.id };
    await exclusive(storage, ref, async () => {
      const current = await deletedMarker(storage, ref);
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
  await storage.put(marker(ref), record);
  await storage.delete(["memory", ref.scope, ref.id]);
}

/** Restore a deleted memory: back in the directory, its marker gone. */
export async function unmarkDeleted(storage, ref) {
  await recordMemory(storage, ref);
  await storage.delete(marker(ref));
}

/** Whether the team has deleted memories waiting for their purge. */
export async function hasDeleted(storage) {
  return (await storage.list(["deleted"], { limit: 1 })).length > 0;
}
