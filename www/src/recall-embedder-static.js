// The static embedder for recall by meaning in the browser store (the
// light option: an 8 MB table instead of MiniLM's 45 MB of weights), loaded
// on first use only: this module is imported dynamically, and its files
// (the table from @memdoc/static, the tokenizer and the embedders' .wasm
// from memdoc) are the packages' own, emitted by Vite as local assets and
// fetched from this page's origin.
// Nothing comes from elsewhere.

import { staticEmbedder } from "memdoc/embedders/static";
import moduleUrl from "memdoc/embedders/minilm/minilm_bg.wasm?url";
import tokenizerUrl from "memdoc/embedders/minilm/tokenizer.json?url";
import tableUrl from "@memdoc/static/all-MiniLM-L6-v2-static-256.i8?url";

/** The static embedder from the page's own copies of its files (recall-panel.js keeps the one of the page). */
export function loadEmbedder() {
  const here = (url) => new URL(url, document.baseURI);
  return staticEmbedder({ module: here(moduleUrl), table: here(tableUrl), tokenizer: here(tokenizerUrl) });
}
