// The multilingual-e5-small embedder for recall by meaning over a memory
// written mostly in another script than Latin (Chinese, Japanese, Korean,
// Cyrillic…), which MiniLM and the static table do not read. Loaded on
// first use only: this module is imported dynamically; the embedder's
// .wasm is memdoc's own, emitted by Vite as a local asset, and the model
// file (72 MB, not in any npm package) is the one this page's server
// serves beside the page (e5-model-path.js: `npm start` serves the copy
// `bash scripts/setup` put in target/models/, www/vite.config.mjs). Nothing
// comes from elsewhere.

import { e5Embedder } from "memdoc/embedders/e5";
import moduleUrl from "memdoc/embedders/e5/e5_bg.wasm?url";

import { E5_MODEL_PATH } from "./e5-model-path.js";

/** The e5 embedder from the page's own copies of its files (recall-panel.js keeps the one of the page). */
export function loadEmbedder() {
  const here = (url) => new URL(url, document.baseURI);
  return e5Embedder({ module: here(moduleUrl), model: here(E5_MODEL_PATH) });
}
