import type { KvHost } from "../index.js";
export interface LocalStorageHostOptions {
  /** Prefix of the Web Locks names taken for writes; default "memdoc:". */
  lockPrefix?: string;
  /** The lock manager; default navigator.locks; null disables cross-tab locking. */
  locks?: LockManager | null;
}
/**
 * A host over Web Storage. Compare-and-swap is exact within a page, and across
 * tabs where the Web Locks API exists; without it, two tabs writing in the same
 * instant can both win (last write wins).
 */
export function localStorageHost(storage?: Storage, options?: LocalStorageHostOptions): KvHost;
