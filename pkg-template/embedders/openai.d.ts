import type { Embedder } from "../index.d.ts";

export interface OpenAiEmbedderOptions {
  /** The API's base, e.g. `"https://api.openai.com/v1"` or `"http://localhost:11434/v1"`; `/embeddings` is added. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** The model, e.g. `"text-embedding-3-small"`. */
  model: string;
  /** Sent only when given: models that can shorten their vectors do. */
  dimensions?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** The most texts one request embeds (100). */
export declare const BATCH: number;

/**
 * An embedder over a `/v1/embeddings` API: OpenAI, Ollama, vLLM, LM Studio,
 * Workers AI's REST endpoint. Its id is the model (with `@dimensions` when given).
 */
export declare function openAiEmbedder(options: OpenAiEmbedderOptions): Embedder;
