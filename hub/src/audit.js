// The audit log of a team: one entry per event under its sequence
// (data/audit.js), newest last in key order. It is bounded: past
// `max` entries the oldest are deleted, in batches (a trim runs on the first
// append of a process and every TRIM_EVERY appends after), and a read never
// returns more than `max`. A `target` is at most TARGET_CHARS characters
// (it may hold a path a client chose).
import { keepNewest, newestEntries, writeEntry } from "./data/audit.js";

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
 * Append an entry; resolves with its sequence (for rewriteAudit).
 * @param {import("./data/storage.js").TeamStorage} storage
 */
export async function appendAudit(storage, entry, max) {
  const seq = sequence();
  await writeEntry(storage, seq, bounded({ at: new Date().toISOString(), ...entry }));
  if (appends++ % TRIM_EVERY === 0) await trimAudit(storage, max);
  return seq;
}

/** Replace the entry appended under `seq` (a summary that grows), in place in the order. */
export async function rewriteAudit(storage, seq, entry) {
  await writeEntry(storage, seq, bounded(entry));
}

/** Delete the entries past the newest `max`. */
export const trimAudit = keepNewest;

/** Newest first, at most `limit`. */
export const readAudit = newestEntries;
