// memdoc/embedders/minilm: the all-MiniLM-L6-v2 sentence transformer, run by
// its own WebAssembly module (embedders/minilm/, not the core's), from the
// weights the package ships beside it (f16, model.fp16.safetensors) and the
// model's tokenizer.json. Nothing is downloaded: in Node and Deno the files
// are read from disk, elsewhere fetched from the package's own URL. English
// only.
import { Model } from "./minilm/minilm.js";
import { bytesOf, coded, embedderOf, instantiate, packaged } from "./wasm.js";

const ID = "all-MiniLM-L6-v2";
const DIMENSIONS = 384;
const WHO = "miniLmEmbedder";

/** A Model from the weights and tokenizer given, or the packaged ones. */
async function load(options) {
  const [, weights, tokenizer] = await Promise.all([
    instantiate(options.module),
    bytesOf(options.weights ?? packaged("model.fp16.safetensors"), "weights", WHO),
    bytesOf(options.tokenizer ?? packaged("tokenizer.json"), "tokenizer", WHO),
  ]);
  try {
    return new Model(weights, new TextDecoder().decode(tokenizer));
  } catch (error) {
    if (error?.code) throw error;
    // Out of memory, or a trap in the module.
    throw coded("embedder/unavailable", `miniLmEmbedder: the model did not load: ${error?.message}`, error);
  }
}

let packagedEmbedder;

/**
 * The all-MiniLM-L6-v2 embedder. With no options it loads the packaged
 * weights once, and every call returns the same embedder; `weights` (a
 * safetensors file, f32 or f16), `tokenizer` (tokenizer.json) and `module`
 * (the .wasm) may be given as bytes or URLs, and load a model of their own.
 */
export function miniLmEmbedder(options = {}) {
  if (options === null || typeof options !== "object") {
    return Promise.reject(coded("embedder/options", "miniLmEmbedder: options must be an object"));
  }
  const own = options.weights !== undefined || options.tokenizer !== undefined;
  if (!own) {
    packagedEmbedder ??= load(options).then((model) => embedderOf(model, ID, DIMENSIONS, "MiniLM"));
    // A failed load is tried again by the next call.
    packagedEmbedder.catch(() => (packagedEmbedder = undefined));
    return packagedEmbedder;
  }
  return load(options).then((model) => embedderOf(model, ID, DIMENSIONS, "MiniLM"));
}
