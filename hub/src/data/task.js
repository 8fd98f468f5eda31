// The `task` namespace: ["task", id], a task memory's expiry `{ expiresAt,
// ttlSeconds }` (tasks.js); the memory itself is in the memories' host.

const expiryKey = (id) => ["task", id];

/** The expiry of a task memory, or undefined. */
export const readExpiry = (storage, id) => storage.get(expiryKey(id));

/** Set a task memory's expiry. */
export const writeExpiry = (storage, id, record) => storage.put(expiryKey(id), record);

/** Remove a task memory's expiry. */
export const deleteExpiry = (storage, id) => storage.delete(expiryKey(id));

/** Every expiry: `[{ id, expiresAt, ttlSeconds }]`. */
export async function listExpiries(storage) {
  return (await storage.list(["task"])).map((e) => ({ id: e.key[1], ...e.value }));
}

/** Whether the team has a task memory. */
export const anyExpiry = async (storage) => (await storage.list(["task"], { limit: 1 })).length > 0;
