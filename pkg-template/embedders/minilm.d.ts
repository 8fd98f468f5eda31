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

/** An embedder (`{ id, dimensions, embed }`) running all-MiniLM-L6-v2 in WebAssembly. */
export interface MiniLmEmbedder {
  readonly id: "all-MiniLM-L6-v2";
  readonly dimensions: 384;
  /** One unit-length vector per text; queries and documents are embedded alike. */
  embed(texts: readonly string[], kind: "query" | "document"): Promise<Float32Array[]>;
}

/**
 * The all-MiniLM-L6-v2 sentence transformer, offline: the packaged weights
 * are loaded once and shared by every call without options. English only.
 */
export function miniLmEmbedder(options?: MiniLmOptions): Promise<MiniLmEmbedder>;
