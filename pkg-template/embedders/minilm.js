// memdoc/embedders/minilm: the all-MiniLM-L6-v2 sentence transformer, run by
// its own WebAssembly module (embedders/minilm/, not the core's), from the
// weights of the package @memdoc/minilm (f16, model.fp16.safetensors),
// installed beside this one by apps that embed, and the model's
// tokenizer.json. Nothing is downloaded: in Node and Deno the files are read
// from disk, elsewhere fetched from the packages' own URLs. English only.
import { Model } from "./minilm/minilm.js";
import { embedderFactory, packageFile, packaged } from "./wasm.js";

/**
 * The all-MiniLM-L6-v2 embedder. With no options it loads the packaged
 * weights (@memdoc/minilm) once, and every call returns the same embedder; `weights` (a
 * safetensors file, f32 or f16), `tokenizer` (tokenizer.json) and `module`
 * (the .wasm) may be given as bytes or URLs, and load a model of their own.
 */
export const miniLmEmbedder = embedderFactory({
  who: "miniLmEmbedder",
  id: "all-MiniLM-L6-v2",
  dimensions: 384,
  name: "MiniLM",
  what: "the model",
  files: {
    weights: () => packageFile(() => import("@memdoc/minilm"), "@memdoc/minilm", "weights", "miniLmEmbedder"),
    tokenizer: () => packaged("tokenizer.json"),
  },
  make: (weights, tokenizer) => new Model(weights, new TextDecoder().decode(tokenizer)),
});
