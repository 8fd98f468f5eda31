// The MiniLM embedder for recall by meaning against a hub, loaded on first
// use only: this module is imported dynamically, and its files (the
// embedder's .wasm and the tokenizer from memdoc, the f16 weights, 45 MB,
// from @memdoc/minilm) are the packages' own, emitted by Vite as local
// assets and fetched from this page's origin. Nothing comes from elsewhere.

import { miniLmEmbedder } from "memdoc/embedders/minilm";
import moduleUrl from "memdoc/embedders/minilm/minilm_bg.wasm?url";
import weightsUrl from "@memdoc/minilm/model.fp16.safetensors?url";
import tokenizerUrl from "memdoc/embedders/minilm/tokenizer.json?url";

/** The MiniLM embedder from the page's own copies of its files (recall-panel.js keeps the one of the page). */
export function loadEmbedder() {
  const here = (url) => new URL(url, document.baseURI);
  return miniLmEmbedder({ module: here(moduleUrl), weights: here(weightsUrl), tokenizer: here(tokenizerUrl) });
}
