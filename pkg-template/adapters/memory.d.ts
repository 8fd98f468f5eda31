import type { KvHost } from "../index.d.ts";
/** An in-memory host with exact compare-and-swap (tests, one process). */
export interface MemoryHost extends KvHost {
  delete(key: string): Promise<void>;
  /** Every key held, for inspection. */
  keys(): string[];
}
export function memoryHost(): MemoryHost;
