import type { Embedder } from "../index.d.ts";
import type { MiniLmSource } from "./minilm.js";

export interface StaticOptions {
  /** The static table (`all-MiniLM-L6-v2-static-256.i8`). Default: the packaged one. */
  table?: MiniLmSource;
  /** The tokenizer.json of all-MiniLM-L6-v2. Default: the packaged one. */
  tokenizer?: MiniLmSource;
  /** The embedders' .wasm, or the compiled module (workerd). Default: the packaged one. */
  module?: MiniLmSource | WebAssembly.Module;
}

/**
 * An embedder over the static table distilled from all-MiniLM-L6-v2: one
 * unit-length vector per text; queries and documents are embedded alike.
 */
export interface StaticEmbedder extends Embedder {
  readonly id: "all-MiniLM-L6-v2-static-256-v2";
  readonly dimensions: 256;
}

/**
 * The static embedder, offline: the packaged table (about 8 MB) is loaded
 * once and shared by every call without options. Faster and lighter than
 * MiniLM and less accurate; English only.
 */
export function staticEmbedder(options?: StaticOptions): Promise<StaticEmbedder>;
