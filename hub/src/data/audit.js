// The `audit` namespace: ["audit", seq], one entry per event, `seq` a
// sequence that sorts by time (audit.js makes it), so that key order is
// the log's order, oldest first.

const entryOf = (seq) => ["audit", seq];

/** Keep (or replace) the entry of `seq`. */
export const writeEntry = (storage, seq, entry) => storage.put(entryOf(seq), entry);

/** The newest entries first, at most `limit`. */
export async function newestEntries(storage, limit) {
  return (await storage.list(["audit"], { reverse: true, limit })).map((e) => e.value);
}

/** Delete every entry older than the newest `max`, in batches of at most 500. */
export async function keepNewest(storage, max) {
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

/** Every entry, oldest first: `[{ seq, entry }]`. */
export async function listAudit(storage) {
  return (await storage.list(["audit"])).map((e) => ({ seq: e.key[1], entry: e.value }));
}

/** The entries of `entries` (each `{ seq, entry }`), for a batch of writes. */
export const auditEntries = (entries) => entries.map((a) => [entryOf(a.seq), a.entry]);
