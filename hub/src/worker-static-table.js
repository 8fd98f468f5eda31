// The static embedder in the Worker (wrangler's `static` environment,
// wrangler.toml): the table (the package @memdoc/static), the tokenizer and
// the embedders' .wasm (memdoc's) travel
// in the upload as modules of their own (Data, Data, CompiledWasm: the
// environment's `rules`), and are imported on first use only, so an isolate
// that never recalls by meaning never holds the 8 MB table.
import { staticEmbedder } from "memdoc/embedders/static";

import { bundledEmbedders } from "./worker-embedders.js";

bundledEmbedders.static = async () => {
  const [table, tokenizer, module] = await Promise.all([
    import("@memdoc/static/all-MiniLM-L6-v2-static-256.i8"),
    import("memdoc/embedders/minilm/tokenizer.json"),
    import("memdoc/embedders/minilm/minilm_bg.wasm"),
  ]);
  return staticEmbedder({ table: table.default, tokenizer: tokenizer.default, module: module.default });
};
