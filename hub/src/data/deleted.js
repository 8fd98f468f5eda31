// The `deleted` namespace: ["deleted", scope, id], a deleted memory's
// marker `{ scope, id, revision, deletedAt, deletedBy, purgeAfter }`
// (deletion.js); while it is there the memory answers as absent.
import { entryKey } from "./memory.js";

const markerOf = (ref) => ["deleted", ref.scope, ref.id];

/** The deletion marker of a memory, or undefined when it is not deleted. */
export const readMarker = (storage, ref) => storage.get(markerOf(ref));

/** The deletion markers of `refs`, in one read where the storage allows. */
export const readMarkers = (storage, refs) => storage.getMany(refs.map(markerOf));

/** Mark `record.scope`/`record.id` deleted. */
export const writeMarker = (storage, record) => storage.put(markerOf(record), record);

/** Remove a memory's marker (a restore). */
export const deleteMarker = (storage, ref) => storage.delete(markerOf(ref));

/** Remove a memory's marker and its directory entry, in one write (a purge). */
export const deleteMarkerAndEntry = (storage, ref) => storage.deleteMany([markerOf(ref), entryKey(ref)]);

/** Every marker (of `scope` when given), in key order. */
export async function listMarkers(storage, scope) {
  return (await storage.list(scope === undefined ? ["deleted"] : ["deleted", scope])).map((e) => e.value);
}

/** Whether the team has a deleted memory. */
export const anyMarker = async (storage) => (await storage.list(["deleted"], { limit: 1 })).length > 0;

/** The entries of `markers`, for a batch of writes. */
export const markerEntries = (markers) => markers.map((d) => [markerOf(d), d]);
