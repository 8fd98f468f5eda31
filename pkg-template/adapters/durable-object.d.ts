import type { KvHost } from "../index.d.ts";
/** The part of a Durable Object's `state.storage` the adapter uses. */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  transaction?<T>(closure: (txn: DurableObjectStorageLike) => Promise<T>): Promise<T>;
}
/** A host over Durable Object storage: exact compare-and-swap in one transaction. */
export function durableObjectHost(storage: DurableObjectStorageLike): KvHost & { delete(key: string): Promise<void> };
