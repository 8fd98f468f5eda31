import type { Embedder } from "../index.d.ts";

/** Bytes, or where to read them (`file:` URLs are read from disk in Node and Deno). */
export type MiniLmSource = Uint8Array | ArrayBuffer | URL;

export interface MiniLmOptions {
  /** A safetensors file of the model, f32 or f16. Default: the packaged f16 weights. */
  weights?: MiniLmSource;
  /** The model's tokenizer.json. Default: the packaged one. */
  tokenizer?: MiniLmSource;
  /** The embedder's .wasm, or the compiled module (workerd). Default: the packaged one. */
  module?: MiniLmSource | WebAssembly.Module;
}

/**
 * An embedder running all-MiniLM-L6-v2 in WebAssembly: one unit-length
 * vector per text; queries and documents are embedded alike.
 */
export interface MiniLmEmbedder extends Embedder {
  readonly id: "all-MiniLM-L6-v2";
  readonly dimensions: 384;
}

/**
 * The all-MiniLM-L6-v2 sentence transformer, offline: the packaged weights
 * are loaded once and shared by every call without options. English only.
 */
export function miniLmEmbedder(options?: MiniLmOptions): Promise<MiniLmEmbedder>;
