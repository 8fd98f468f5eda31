// Types of every entry (node, deno, workerd, browser): the generated glue's
// declarations, which include the API types (generated from the Rust
// types, bindings/wasm/src/base/generated.d.ts), plus `init`.
import type { InitInput, Recall, RecallOptions } from "./memdoc.js";

export * from "./memdoc.js";

/**
 * Load the WebAssembly module. Idempotent: later calls return the same
 * promise. Required in browsers before any other call; in Node, Deno and
 * Workers the module is loaded on import and this resolves at once.
 */
export declare function init(moduleOrPath?: InitInput | Promise<InitInput>): Promise<void>;
export default init;

// ---- recall by meaning (docs/API.md, "Recall by meaning") -------------------

/** Gives vectors for texts: a model, local or remote. */
export interface Embedder {
  /** The model's name: keys the vector cache and recall's calibration (docs/FORMAT.md §12). */
  id: string;
  /** The length of its vectors (`null` until known, for an API that decides). */
  dimensions: number | null;
  /** One vector per text, in order. */
  embed(texts: readonly string[], kind: "query" | "document"): Promise<Float32Array[]>;
}

/** Where item vectors are kept between calls: any store with these two methods. */
export interface VectorCache {
  /** The vector of each key, or `undefined`. */
  getMany(keys: string[]): Promise<(Float32Array | undefined)[]>;
  setMany(entries: [string, Float32Array][]): Promise<void>;
}

/** Options of `hybridRecall`: `recall`'s, with the embedder and its cache. */
export interface HybridRecallOptions extends RecallOptions {
  embedder: Embedder;
  /**
   * Used instead of `embedder` when the memory or the query is mostly not
   * in Latin letters (e.g. `e5Embedder`, memdoc/embedders/e5).
   */
  multilingualEmbedder?: Embedder;
  /** Default: one in-memory LRU per embedder id (20,000 vectors), shared by every call. */
  cache?: VectorCache;
}

/** The model a hybrid recall used, and whether it had to do without it. */
export interface RecallSemantic {
  /** The embedder's id. */
  model: string;
  /** `null`, or `"embedder/unavailable"` when the embedder failed and the result is by words alone. */
  degraded: "embedder/unavailable" | null;
  /** Why the embedder failed, when it did. */
  message?: string;
}

/** A `Recall`, and how its semantic part went. */
export interface HybridRecall extends Recall {
  semantic: RecallSemantic;
}

/**
 * `recall` by words and meaning: the items and the query embedded by
 * `options.embedder` (items through the cache: an unchanged item is never
 * embedded twice), lexical and semantic relevance fused (docs/FORMAT.md
 * §12). When the embedder fails, the result is `recall`'s by words, with
 * `semantic.degraded` set.
 */
export declare function hybridRecall(text: string, query: string, options: HybridRecallOptions): Promise<HybridRecall>;

/** An in-memory `VectorCache` of at most `size` vectors (default 20,000), least recently used dropped first. */
export declare function lruCache(size?: number): VectorCache & { readonly size: number };
/** The vector cache's key of `text` for the embedder `id` (docs/API.md, "The vector cache"). */
export declare function vectorKey(id: string, text: string): string;
