// The memories' host (`storage.host`): the records of the engine's store,
// each memory's head `memdoc/<scope>/<id>` and the snapshots it names under
// `<head>/rev/`, and a task memory's under `memdoc-task/team/<id>`. The
// engine's `MemoryStore` reads and writes them; this module is the one
// place of the hub that names their keys or reads a record as stored (a
// purge of a head the store refuses, a backup's records carried as the
// very strings the store wrote).
import { MemoryStore } from "memdoc";

/** The key prefix of task memories' records (team-scope memories of the engine under their own prefix). */
export const TASK_PREFIX = "memdoc-task";

/** The key of a memory's head record. */
export const headKey = (ref) => `memdoc/${ref.scope}/${ref.id}`;

/** The key of a task memory's head record. */
export const taskHeadKey = (id) => `${TASK_PREFIX}/team/${id}`;

/** The engine's store of a team's memories (of its task memories with `keyPrefix: TASK_PREFIX`). */
export const memoryStore = (storage, options) => new MemoryStore(storage.host, options);

/** A head record as stored, parsed without the store's checks; null when it is not a JSON object. */
function rawHead(text) {
  try {
    const head = JSON.parse(text);
    return head !== null && typeof head === "object" ? head : null;
  } catch {
    return null;
  }
}

/**
 * Delete the head record under `head` and the snapshots it names (head
 * first: no head ever names a missing snapshot). The record is read raw,
 * not loaded, so a head the store refuses is deleted too; only keys under
 * its own `/rev/` are deleted as its snapshots.
 */
export async function deleteStored(storage, head) {
  const found = await storage.host.get(head);
  await storage.host.delete(head);
  const snapshots = found ? rawHead(found.value)?.snapshots : null;
  for (const s of Array.isArray(snapshots) ? snapshots : []) {
    if (typeof s?.key === "string" && s.key.startsWith(`${head}/rev/`)) await storage.host.delete(s.key);
  }
}

/** The revision of a memory's head as stored (0 when absent or unreadable): for a purge of a memory the store refuses. */
export async function storedRevision(storage, ref) {
  const found = await storage.host.get(headKey(ref));
  const revision = found ? rawHead(found.value)?.revision : 0;
  return Number.isSafeInteger(revision) && revision > 0 ? revision : 0;
}

/**
 * A memory's records as stored, for a backup: `{ head, revisions: [{
 * revision, key, value }] }` (each kept snapshot its head names that is
 * there), or null when it has no head.
 */
export async function storedRecords(storage, ref) {
  const head = await storage.host.get(headKey(ref));
  if (!head) return null;
  const revisions = [];
  for (const s of JSON.parse(head.value).snapshots) {
    const snapshot = await storage.host.get(s.key);
    if (snapshot) revisions.push({ revision: s.revision, key: s.key, value: snapshot.value });
  }
  return { head: head.value, revisions };
}

/**
 * What a backup's head record of `ref` says: `{ revision, snapshots: [{
 * revision, key }] }`, or a string saying why it is not a head of `ref`.
 */
export function headOf(text, ref) {
  const head = rawHead(text);
  if (head === null || head.scope !== ref.scope || head.id !== ref.id || !Number.isInteger(head.revision) || head.revision < 1 || !Array.isArray(head.snapshots)) {
    return `head must be the stored head record of ${ref.scope}/${ref.id}`;
  }
  const prefix = `${headKey(ref)}/rev/`;
  if (!head.snapshots.every((s) => s !== null && typeof s === "object" && !Array.isArray(s) && Number.isInteger(s.revision) && typeof s.key === "string" && s.key.length <= 1000 && s.key.startsWith(prefix))) {
    return "a snapshot of the head lies outside its memory";
  }
  return { revision: head.revision, snapshots: head.snapshots };
}

/** Write a record of an import, replacing one left by an abandoned import. */
export async function writeStored(storage, key, value) {
  if ((await storage.host.put(key, value, { expectedVersion: null })).ok) return;
  const left = await storage.host.get(key);
  if (!(await storage.host.put(key, value, { expectedVersion: left?.version ?? null })).ok) throw new Error(`the import could not write ${key}`);
}
