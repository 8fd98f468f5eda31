// The `used` namespace: ["used", keyId], a live key's last use (an ISO
// instant), kept apart from its record so that this write can never bring
// back a key revoked meanwhile.

/** The storage key of a key's last use (key.js deletes it with the key). */
export const usedKey = (keyId) => ["used", keyId];

/** Note that `keyId` was used at `at` (ISO). */
export const writeUsed = (storage, keyId, at) => storage.put(usedKey(keyId), at);

/** Every key's last use: a Map of key id to ISO instant. */
export async function lastUses(storage) {
  return new Map((await storage.list(["used"])).map((e) => [e.key[1], e.value]));
}

/** The entries of `uses` (`[keyId, at]` pairs), for a batch of writes. */
export const usedEntries = (uses) => uses.map(([keyId, at]) => [usedKey(keyId), at]);
