// The `key` namespace: ["key", keyId], a live key's record `{ id, member,
// role, label, createdAt, lastUsedAt: null, hash, expiresAt, rotatedTo? }`
// (key-records.js: the SHA-256 of the key, never the key).
import { usedKey } from "./used.js";

const keyOf = (id) => ["key", id];

/** A live key's record, undefined when absent. */
export const readKey = (storage, id) => storage.get(keyOf(id));

/** Keep (or replace) the record of key `id`. */
export const writeKey = (storage, id, record) => storage.put(keyOf(id), record);

/** Every live key's record, by id. */
export async function listKeys(storage) {
  return (await storage.list(["key"])).map((e) => e.value);
}

/** Forget a live key: its record and its last use, in one write. */
export const deleteKey = (storage, id) => storage.deleteMany([keyOf(id), usedKey(id)]);

/** The entries of `records`, for a batch of writes. */
export const keyEntries = (records) => records.map((r) => [keyOf(r.id), r]);
