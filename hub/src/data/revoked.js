// The `revoked` namespace: ["revoked", keyId], a revoked key `{ member,
// role, revokedAt }`, still known by its id (refused as its member).

const revokedOf = (id) => ["revoked", id];

/** A revoked key's record, undefined when the id was never revoked. */
export const readRevoked = (storage, id) => storage.get(revokedOf(id));

/** Keep key `id` as revoked. */
export const writeRevoked = (storage, id, record) => storage.put(revokedOf(id), record);

/** Every revoked key: `[{ id, member, role, revokedAt }]`. */
export async function listRevoked(storage) {
  return (await storage.list(["revoked"])).map((e) => ({ id: e.key[1], ...e.value }));
}

/** The entries of `revoked` (each `{ id, member, role, revokedAt }`), for a batch of writes. */
export const revokedEntries = (revoked) => revoked.map((k) => [revokedOf(k.id), { member: k.member, role: k.role, revokedAt: k.revokedAt }]);
