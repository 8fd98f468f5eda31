// The WebAssembly module of memdoc's own embedders (embedders/minilm/: the
// MiniLM transformer and the static table share it and its tokenizer),
// compiled once, and the files it reads: the module and the tokenizer from
// this package, the weights and the table from the embedders' packages
// (@memdoc/minilm, @memdoc/static) installed beside it; in Node and Deno
// read from disk, elsewhere fetched from the packages' URLs (or given as
// bytes or modules, as a Worker's upload has them).
import initGlue, { initSync } from "./minilm/minilm.js";

/** The package's own file. */
export const packaged = (file) => new URL(`./minilm/${file}`, import.meta.url);

/**
 * The URL of a file an embedder's own package exports (`@memdoc/minilm`'s
 * `weights`, `@memdoc/static`'s `table`). `load` imports the package, written
 * out by the caller so that bundlers see it; a package that is not installed
 * is a coded error naming it.
 */
export async function packageFile(load, name, file, who) {
  let files;
  try {
    files = await load();
  } catch (error) {
    throw coded(
      "embedder/unavailable",
      `${who}: the package ${name}, which holds the ${file}, is not installed: install it beside memdoc (npm install ${name}) or give \`${file}\``,
      error,
    );
  }
  return files[file];
}

/** An Error with a code, as every memdoc error. */
export function coded(code, message, cause) {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  error.code = code;
  return error;
}

/** Bytes from bytes or a URL (file: read from disk in Node and Deno). */
export async function bytesOf(source, what, who) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (!(source instanceof URL)) {
    throw coded("embedder/options", `${who}: ${what} must be a Uint8Array, an ArrayBuffer or a URL`);
  }
  try {
    if (source.protocol === "file:") {
      // node:fs in Node and Deno; elsewhere (browsers, workerd) a file: URL
      // is refused, and bundlers never meet node:fs (the package's
      // "imports"). Imported here only: a page without a bundler never
      // resolves it.
      const { readFile } = await import("#read-file");
      return await readFile(source);
    }
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw coded("embedder/unavailable", `${who}: cannot read the ${what} at ${source.href}: ${error.message}`, error);
  }
}

/**
 * Whether the host runs WebAssembly's SIMD: a module of one function using
 * `i8x16.splat` and `i8x16.popcnt` validates (as wasm-feature-detect's
 * probe). Without it the module built without SIMD is loaded.
 */
const SIMD = WebAssembly.validate(
  new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]),
);

/** The packaged module this host runs. */
const packagedModule = () => packaged(SIMD ? "minilm_bg.wasm" : "minilm_nosimd_bg.wasm");

/**
 * A function that instantiates an embedder's WebAssembly module once (its
 * glue's default export and `initSync`, and the URL of the packaged .wasm):
 * a WebAssembly.Module may be given, as workerd requires.
 */
export function instantiator(initGlue, initSync, packaged) {
  let glue;
  return (module) => {
    glue ??= (async () => {
      if (module instanceof WebAssembly.Module) initSync({ module });
      else await initGlue({ module_or_path: await bytesOf(module ?? packaged(), "module", "memdoc/embedders") });
    })();
    // A module that failed to load is tried again by the next call.
    glue.catch(() => (glue = undefined));
    return glue;
  };
}

/** MiniLM's module (embedders/minilm/), shared by MiniLM and the static table. */
export const instantiate = instantiator(initGlue, initSync, packagedModule);

/**
 * An embedder's factory (miniLmEmbedder, staticEmbedder). `files` names the
 * options that give the model's files, each with its packaged default (a
 * function of no arguments giving its URL, or a promise of it); `make` builds the model from
 * their bytes, in that order. With none of those options the factory loads
 * the packaged files once, and every call returns the same embedder; with
 * any, it loads one of their own. `module` (the .wasm) may be given either way,
 * `start` instantiates it (default: MiniLM's).
 */
export function embedderFactory({ who, id, dimensions, name, what, files, make, start = instantiate }) {
  const keys = Object.keys(files);
  const load = async (options) => {
    const [, ...bytes] = await Promise.all([
      start(options.module),
      ...keys.map(async (key) => bytesOf(options[key] ?? (await files[key]()), key, who)),
    ]);
    let model;
    try {
      model = make(...bytes);
    } catch (error) {
      if (error?.code) throw error;
      // Out of memory, or a trap in the module.
      throw coded("embedder/unavailable", `${who}: ${what} did not load: ${error?.message}`, error);
    }
    return embedderOf(model, id, dimensions, name);
  };
  let packagedEmbedder;
  return (options = {}) => {
    if (options === null || typeof options !== "object") {
      return Promise.reject(coded("embedder/options", `${who}: options must be an object`));
    }
    if (keys.some((key) => options[key] !== undefined)) return load(options);
    packagedEmbedder ??= load(options);
    // A failed load is tried again by the next call.
    packagedEmbedder.catch(() => (packagedEmbedder = undefined));
    return packagedEmbedder;
  };
}

const KINDS = ["query", "document"];
/**
 * Characters of the texts one call into the module takes, at least: about
 * 128 tokens of English, the module's batch (embedders/bert/src/lib.rs),
 * a tenth of a second or so of MiniLM in WebAssembly.
 */
const BATCH_CHARS = 500;

/** The embedder `id` over a loaded model (`name` in its errors). */
export function embedderOf(model, id, dimensions, name) {
  let broken = null;
  return Object.freeze({
    id,
    dimensions,
    async embed(texts, kind) {
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
        throw coded("embedder/input", "embed: texts must be an array of strings");
      }
      if (!KINDS.includes(kind)) throw coded("embedder/input", 'embed: kind must be "query" or "document"');
      if (broken) throw coded("embedder/unavailable", `${name} stopped after an internal error`, broken);
      const vectors = [];
      let since = performance.now();
      for (let first = 0; first < texts.length; ) {
        // A few texts at a time (the module packs their tokens into one
        // forward pass), letting other work run every 20 ms or so: a whole
        // memory takes seconds.
        let end = first;
        for (let chars = 0; end < texts.length && chars < BATCH_CHARS; end++) chars += texts[end].length;
        if (performance.now() - since > 20) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          since = performance.now();
        }
        let flat;
        try {
          flat = model.embed(texts.slice(first, end), kind === "query");
        } catch (error) {
          // A trap in the module (a Rust panic): its state is unknown from here on.
          broken = error;
          throw coded("embedder/unavailable", `${name} failed: ${error.message}`, error);
        }
        for (let i = 0; i < end - first; i++) vectors.push(flat.slice(i * dimensions, (i + 1) * dimensions));
        first = end;
      }
      return vectors;
    },
  });
}
