import type { KvHost } from "../index.d.ts";
export interface DenoKvHostOptions {
  /** Key prefix, default ["memdoc"]. */
  prefix?: unknown[];
}
/**
 * A host over Deno KV with exact compare-and-swap (`atomic().check()`); values
 * over 60,000 bytes are split into chunks written in the same atomic commit.
 */
export function denoKvHost(kv: unknown, options?: DenoKvHostOptions): KvHost & { delete(key: string): Promise<void> };
