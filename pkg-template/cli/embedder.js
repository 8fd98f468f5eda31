// `memdoc recall`'s embedders in the package's bin (cli.js; docs/CLI.md,
// "Recall by meaning"), as the Rust binary's
// cli/src/bin/memdoc/embedder.rs: where their files are looked for, which
// one a recall uses (the static table, e5 for a memory or question mostly
// not in Latin letters as hybridRecall chooses, MiniLM when asked), and
// the vectors it gives the engine, which ranks and prints (`__cliRecall`).
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { e5Embedder } from "../embedders/e5.js";
import { miniLmEmbedder } from "../embedders/minilm.js";
import { staticEmbedder } from "../embedders/static.js";
import { mostlyNotLatin } from "../language.js";

/** `--embedder`'s values. */
export const EMBEDDERS = ["static", "minilm", "e5", "none"];

const TOKENIZER = "all-MiniLM-L6-v2/tokenizer.json";

/** Each embedder: its files in setup's layout (by option name), its factory, and its package's. */
const kinds = {
  static: { files: { table: "static/all-MiniLM-L6-v2-static-256.i8", tokenizer: TOKENIZER }, make: staticEmbedder, packaged: true },
  minilm: { files: { weights: "all-MiniLM-L6-v2/model.safetensors", tokenizer: TOKENIZER }, make: miniLmEmbedder, packaged: true },
  e5: { files: { model: "multilingual-e5-small/e5-small-q4.bin" }, make: e5Embedder, packaged: false },
};

/**
 * The models folder: MEMDOC_MODELS when it is set (then only it: no
 * package either), else setup's target/models of the repository whose
 * pkg/ this is.
 */
function models() {
  const dir = process.env.MEMDOC_MODELS;
  if (dir) return { dir: pathToFileURL(dir.endsWith("/") ? dir : `${dir}/`), packages: false };
  return { dir: new URL("../../target/models/", import.meta.url), packages: true };
}

/** The embedder `kind` from the folder's files, or its installed package; undefined when neither is there. */
async function load(kind, { dir, packages }) {
  const { files, make, packaged } = kinds[kind];
  const urls = Object.fromEntries(Object.entries(files).map(([option, file]) => [option, new URL(file, dir)]));
  if (Object.values(urls).every((url) => existsSync(url))) return make(urls);
  if (!packages || !packaged) return undefined;
  try {
    return await make();
  } catch (error) {
    if (error?.code === "embedder/unavailable") return undefined;
    throw error;
  }
}

/**
 * `__cliRecall`'s last four arguments for the recall of `question` from
 * `text` with `--embedder` (undefined: the default): the embedder's id and
 * vectors, or the name of the embedder whose files were not found.
 */
export async function meaning(memdoc, text, question, asked) {
  if (asked === "none") return [undefined, undefined, undefined, undefined];
  const where = models();
  let kind = asked ?? "static";
  if (asked === undefined && (mostlyNotLatin(text) || mostlyNotLatin(question)) && existsSync(new URL(kinds.e5.files.model, where.dir))) kind = "e5";
  const embedder = await load(kind, where);
  if (embedder === undefined) return [undefined, undefined, undefined, asked ?? "any"];
  const prepared = new memdoc.PreparedMemory(text);
  const items = prepared.items;
  prepared.free();
  const [query] = await embedder.embed([question], "query");
  const vectors = items.length === 0 ? [] : await embedder.embed(items, "document");
  const all = new Float32Array(vectors.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const vector of vectors) {
    all.set(vector, at);
    at += vector.length;
  }
  return [embedder.id, Float32Array.from(query), all, undefined];
}
