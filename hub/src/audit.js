// The audit log of a team: one storage entry per event under
// ["audit", <sequence>], newest last in key order. It is bounded: past
// `max` entries the oldest are deleted, in batches (a trim runs on the first
// append of a process and every TRIM_EVERY appends after), and a read never
// returns more than `max`. A `target` is at most TARGET_CHARS characters
// (it may hold a path a client chose).

const TRIM_EVERY = 32;
export const TARGET_CHARS = 256;
let last = 0;
let appends = 0;

/** A key that sorts after every earlier one of this process. */
function sequence() {
  last = Math.max(Date.now() * 1000, last + 1);
  const random = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, "0");
  return `${String(last).padStart(17, "0")}-${random}`;
}

function bounded(entry) {
  const target = entry.target;
  if (typeof target !== "string" || target.length <= TARGET_CHARS) return entry;
  return { ...entry, target: `${target.slice(0, TARGET_CHARS - 1)}…` };
}

/**
 * Append an entry; resolves with its key (for rewriteAudit).
 * @param {import("./team-storage.js").TeamStorage} storage
 */
export async function appendAudit(storage, entry, max) {
  const key = ["audit", sequence()];
  await storage.put(key, bounded({ at: new Date().toISOString(), ...entry }));
  if (appends++ % TRIM_EVERY === 0) await trimAudit(storage, max);
  return key;
}

/** Replace the entry appended under `key` (a summary that grows), in place in the order. */
export async function rewriteAudit(storage, key, entry) {
  await storage.put(key, bounded(entry));
}

export async function trimAudit(storage, max) {
  const newest = await storage.list(["audit"], { reverse: true, limit: max + 1 });
  if (newest.length <= max) return;
  const oldestKept = newest[max - 1].key;
  for (;;) {
    const older = await storage.list(["audit"], { end: oldestKept, limit: 500 });
    if (older.length === 0) return;
    await storage.deleteMany(older.map((e) => e.key));
    if (older.length < 500) return;
  }
}

/** Newest first, at most `limit`. */
export async function readAudit(storage, limit) {
  return (await storage.list(["audit"], { reverse: true, limit })).map((e) => e.value);
}
