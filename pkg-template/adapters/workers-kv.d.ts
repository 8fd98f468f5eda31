import type { KvHost } from "../index.d.ts";
/** The part of a Workers KV namespace binding the adapter uses. */
export interface KvNamespaceLike {
  getWithMetadata(key: string, options: { type: "text" }): Promise<{ value: string | null; metadata: unknown }>;
  put(key: string, value: string, options: { metadata: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
}
/**
 * A best-effort host over Workers KV: versions live in key metadata and are
 * checked before each write, but KV has no compare-and-swap and is eventually
 * consistent, so two writers in the same moment can both win. Use a Durable
 * Object for memories with concurrent writers.
 */
export function workersKvHost(namespace: KvNamespaceLike): KvHost & { delete(key: string): Promise<void> };
