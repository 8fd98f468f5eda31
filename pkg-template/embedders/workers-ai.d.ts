import type { Embedder } from "../index.d.ts";

/** The `AI` binding of a Worker, as far as embedding goes. */
export interface WorkersAiBinding {
  run(model: string, input: { text: string[] }): Promise<{ data: number[][] }>;
}

export interface WorkersAiEmbedderOptions {
  /** Default `"@cf/baai/bge-small-en-v1.5"` (English); `"@cf/baai/bge-m3"` for other languages. */
  model?: string;
  /** The length of the model's vectors; known for the BGE models. */
  dimensions?: number;
}

/** The default model. */
export declare const DEFAULT_MODEL: string;
/** The most texts one call embeds (100). */
export declare const BATCH: number;
/** The length of each known model's vectors. */
export declare const MODEL_DIMENSIONS: Record<string, number>;

/** An embedder over Workers AI: `env.AI.run(model, { text })`, at most 100 texts a call. */
export declare function workersAiEmbedder(ai: WorkersAiBinding, options?: WorkersAiEmbedderOptions): Embedder;
