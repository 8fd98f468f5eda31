import type { KvHost } from "../index.d.ts";
export interface LocalStorageHostOptions {
  /** Prefix of the Web Locks names taken for writes; default "memdoc:". */
  lockPrefix?: string;
  /** The lock manager; default navigator.locks; null disables cross-tab locking. */
  locks?: LockManager | null;
}
/**
 * A host over Web Storage. Compare-and-swap is exact within a page. Across tabs
 * it is best effort, even with Web Locks: a browser may bring another tab's
 * write into this tab's copy of the storage a moment late (Chromium does), so
 * two tabs writing at once can both win (last write wins). For a memory that
 * several tabs write, use `indexedDbHost` from `memdoc/adapters/indexeddb`.
 */
export function localStorageHost(storage?: Storage, options?: LocalStorageHostOptions): KvHost & { delete(key: string): Promise<void> };
