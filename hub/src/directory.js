// The directory of a team's memories (routes/directory.js lists what a key
// can open from it). It is an index beside the memories (data/memory.js),
// written after every save
// that changed a memory. It names memories and holds nothing else, so an
// entry written twice is harmless; a save acknowledged before its entry was
// written (a crash between the two) appears with the memory's next save.
import { listEntries } from "./data/memory.js";

export { recordMemory } from "./data/memory.js";

/** The ids of every team memory of the team the storage belongs to. */
export async function teamMemoryIds(storage) {
  return (await listEntries(storage, { scope: "team" })).map((e) => e.id);
}
