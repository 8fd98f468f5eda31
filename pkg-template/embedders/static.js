// memdoc/embedders/static: the static table distilled from all-MiniLM-L6-v2
// (embedders/minilm/src/distill.rs): one int8 row of 256 per token of its
// vocabulary, a text's vector the SIF-weighted mean of its tokens' rows. Run
// by the same WebAssembly module and WordPiece tokenizer as
// memdoc/embedders/minilm, from the table the package ships
// (embedders/static/, about 8 MB). Nothing is downloaded. Lighter and much
// faster than MiniLM, and less accurate (docs/API.md); English only.
import { StaticModel } from "./minilm/minilm.js";
import { bytesOf, coded, embedderOf, instantiate, packaged } from "./wasm.js";

const ID = "all-MiniLM-L6-v2-static-256";
const DIMENSIONS = 256;
const WHO = "staticEmbedder";

/** A StaticModel from the table and tokenizer given, or the packaged ones. */
async function load(options) {
  const [, table, tokenizer] = await Promise.all([
    instantiate(options.module),
    bytesOf(options.table ?? new URL(`./static/${ID}.i8`, import.meta.url), "table", WHO),
    bytesOf(options.tokenizer ?? packaged("tokenizer.json"), "tokenizer", WHO),
  ]);
  try {
    return new StaticModel(table, new TextDecoder().decode(tokenizer));
  } catch (error) {
    if (error?.code) throw error;
    throw coded("embedder/unavailable", `staticEmbedder: the table did not load: ${error?.message}`, error);
  }
}

let packagedEmbedder;

/**
 * The static embedder. With no options it loads the packaged table once,
 * and every call returns the same embedder; `table`, `tokenizer`
 * (tokenizer.json) and `module` (the .wasm) may be given as bytes or URLs,
 * and load one of their own.
 */
export function staticEmbedder(options = {}) {
  if (options === null || typeof options !== "object") {
    return Promise.reject(coded("embedder/options", "staticEmbedder: options must be an object"));
  }
  const of = (model) => embedderOf(model, ID, DIMENSIONS, "the static embedder");
  if (options.table === undefined && options.tokenizer === undefined) {
    packagedEmbedder ??= load(options).then(of);
    // A failed load is tried again by the next call.
    packagedEmbedder.catch(() => (packagedEmbedder = undefined));
    return packagedEmbedder;
  }
  return load(options).then(of);
}
