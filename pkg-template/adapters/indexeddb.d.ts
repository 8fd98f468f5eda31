import type { KvHost } from "../index.d.ts";
export interface IndexedDbHostOptions {
  /** Database name; default "memdoc". */
  name?: string;
  /** Object store name; default "kv". */
  store?: string;
}
/** A host over IndexedDB. */
export interface IndexedDbHost extends KvHost {
  delete(key: string): Promise<void>;
  /** Close the connection; the next call opens it again. */
  close(): Promise<void>;
}
/**
 * A host over IndexedDB with exact compare-and-swap, also across tabs: `put`
 * reads, compares and writes in one readwrite transaction. The database is
 * opened on first use. A stored value that is not this adapter's record
 * rejects (it is never read as absent); over quota, `put` rejects with the
 * browser's QuotaExceededError.
 */
export function indexedDbHost(options?: IndexedDbHostOptions): IndexedDbHost;
