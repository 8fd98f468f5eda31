// Every namespace of a team's storage: what it holds, which module owns
// its keys, and whether a backup carries it (backup.js reads each namespace
// it carries with `read` and writes it back with `entries`, in this order).
// A namespace a backup leaves out says why. The memories' host is not a
// namespace of the team's storage but the host the engine's store writes
// through (memories.js): a backup carries the records of team and user
// memories, deleted or not, as the strings the store wrote, never a task
// memory's.
import { auditEntries, listAudit } from "./audit.js";
import { markerEntries, listMarkers } from "./deleted.js";
import { keyEntries, listKeys } from "./key.js";
import { policyEntries, readPolicies } from "./lifecycle.js";
import { listMembers, memberEntries } from "./member.js";
import { listEntries, memoryEntries } from "./memory.js";
import { listRevoked, revokedEntries } from "./revoked.js";
import { lastUses, usedEntries } from "./used.js";

/**
 * @typedef {object} Namespace
 * @property {string} name  the first part of each of its keys
 * @property {string} module  the module of hub/src/data that owns its keys
 * @property {string} holds
 * @property {string} backup  the export's records that carry it, or why none does
 * @property {(storage: import("./storage.js").TeamStorage) => Promise<any>} [read]  what a backup exports
 * @property {(records: any) => [string[], any][]} [entries]  the storage entries of what an import writes
 */

/** @type {Namespace[]} */
export const LAYOUT = [
  { name: "team", module: "team.js", holds: "the team's record { team, createdAt, importing? }", backup: "the export's first line (createdAt); an import writes it first, marked importing, and last, as its switch (team-record.js)" },
  { name: "key", module: "key.js", holds: "a live key's record by key id (its SHA-256, never the key)", backup: "key records", read: listKeys, entries: keyEntries },
  { name: "used", module: "used.js", holds: "a live key's last use by key id", backup: "key records (lastUsedAt)", read: lastUses, entries: usedEntries },
  { name: "revoked", module: "revoked.js", holds: "a revoked key by key id { member, role, revokedAt }", backup: "key records (revokedAt)", read: listRevoked, entries: revokedEntries },
  { name: "member", module: "member.js", holds: "a member's status { status, changedAt, changedBy }; the queue of key and member changes", backup: "member records (status disabled)", read: listMembers, entries: memberEntries },
  { name: "lifecycle", module: "lifecycle.js", holds: "the team's expiry policies", backup: "policy records", read: readPolicies, entries: policyEntries },
  { name: "memory", module: "memory.js", holds: "the directory of memories by scope and id { since }; each memory's queue", backup: "memory records (since)", read: listEntries, entries: memoryEntries },
  { name: "deleted", module: "deleted.js", holds: "a deleted memory's marker by scope and id", backup: "deleted records", read: listMarkers, entries: markerEntries },
  { name: "audit", module: "audit.js", holds: "the audit log, one entry per event by a sequence that sorts by time", backup: "audit records", read: listAudit, entries: auditEntries },
  { name: "stats", module: "stats.js", holds: "the team's figures by UTC hour; the queue of their updates", backup: "none: figures of the requests a hub served; a restored team counts anew" },
  { name: "task", module: "task.js", holds: "a task memory's expiry by id", backup: "none: task memories are short-lived and rebuildable by design, and an export leaves them out" },
  { name: "vectors", module: "vectors.js", holds: "the vectors of a memory's items, one record per memory, embedder and text, in chunks; a task memory's one entry per item (the indexer's); the mark that the earlier layout's entries are deleted", backup: "none: the indexer makes them again from the memories" },
];

/** The namespaces a backup carries. */
export const BACKED_UP = LAYOUT.filter((n) => n.read);

/** What a backup carries of the team's storage, by namespace name (each namespace's `read`). */
export async function readBackedUp(storage) {
  const held = {};
  for (const n of BACKED_UP) held[n.name] = await n.read(storage);
  return held;
}

/**
 * Write what an import carries, by namespace name (each namespace's records
 * as its `read` gives them), in batches of one write each.
 */
export async function writeBackedUp(storage, records) {
  await storage.putMany(BACKED_UP.flatMap((n) => n.entries(records[n.name])));
}
