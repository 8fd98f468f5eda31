// memdoc/embedders/static: the static table distilled from all-MiniLM-L6-v2
// (embedders/minilm/src/distill.rs): one int8 row of 256 per token of its
// vocabulary, a text's vector the SIF-weighted mean of its tokens' rows. Run
// by the same WebAssembly module and WordPiece tokenizer as
// memdoc/embedders/minilm, from the table of the package @memdoc/static
// (about 8 MB), installed beside this one by apps that embed. Nothing is
// downloaded. Lighter and much faster than MiniLM, and less accurate
// (docs/API.md); English only.
import { StaticModel } from "./minilm/minilm.js";
import { embedderFactory, packageFile, packaged } from "./wasm.js";

const ID = "all-MiniLM-L6-v2-static-256-v2";

/**
 * The static embedder. With no options it loads the packaged table (@memdoc/static) once,
 * and every call returns the same embedder; `table`, `tokenizer`
 * (tokenizer.json) and `module` (the .wasm) may be given as bytes or URLs,
 * and load one of their own.
 */
export const staticEmbedder = embedderFactory({
  who: "staticEmbedder",
  id: ID,
  dimensions: 256,
  name: "the static embedder",
  what: "the table",
  files: {
    table: () => packageFile(() => import("@memdoc/static"), "@memdoc/static", "table", "staticEmbedder"),
    tokenizer: () => packaged("tokenizer.json"),
  },
  make: (table, tokenizer) => new StaticModel(table, new TextDecoder().decode(tokenizer)),
});
