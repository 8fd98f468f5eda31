// The directory of a team's memories (routes/directory.js lists what a key
// can open from it). It is an index beside the memories (the key
// ["memory", scope, id] in the team's storage), written after every save
// that changed a memory. It names memories and holds nothing else, so an
// entry written twice is harmless; a save acknowledged before its entry was
// written (a crash between the two) appears with the memory's next save.

/** Note that `ref` exists (put only if absent: one write per memory, ever). */
export function recordMemory(storage, ref) {
  return storage.create(["memory", ref.scope, ref.id], { since: new Date().toISOString() });
}

/** The ids of every team memory of the team the storage belongs to. */
export async function teamMemoryIds(storage) {
  return (await storage.list(["memory", "team"])).map((e) => e.key[2]);
}
