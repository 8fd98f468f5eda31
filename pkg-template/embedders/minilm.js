// memdoc/embedders/minilm: the all-MiniLM-L6-v2 sentence transformer, run by
// its own WebAssembly module (embedders/minilm/, not the core's), from the
// weights the package ships beside it (f16, model.fp16.safetensors) and the
// model's tokenizer.json. Nothing is downloaded: in Node and Deno the files
// are read from disk, elsewhere fetched from the package's own URL. English
// only.
import initGlue, { initSync, Model } from "./minilm/minilm.js";

const ID = "all-MiniLM-L6-v2";
const DIMENSIONS = 384;
const KINDS = ["query", "document"];

/** The package's own file. */
const packaged = (file) => new URL(`./minilm/${file}`, import.meta.url);

/** An Error with a code, as every memdoc error. */
function coded(code, message, cause) {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  error.code = code;
  return error;
}

/** Bytes from bytes or a URL (file: read from disk in Node and Deno). */
async function bytesOf(source, what) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (!(source instanceof URL)) {
    throw coded("embedder/options", `miniLmEmbedder: ${what} must be a Uint8Array, an ArrayBuffer or a URL`);
  }
  try {
    if (source.protocol === "file:") {
      const { readFile } = await import("node:fs/promises");
      return new Uint8Array(await readFile(source));
    }
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw coded("embedder/unavailable", `miniLmEmbedder: cannot read the ${what} at ${source.href}: ${error.message}`, error);
  }
}

let glue;
/** The module's one instance, compiled once (a WebAssembly.Module may be given, as workerd requires). */
function instantiate(module) {
  glue ??= (async () => {
    if (module instanceof WebAssembly.Module) initSync({ module });
    else await initGlue({ module_or_path: await bytesOf(module ?? packaged("minilm_bg.wasm"), "module") });
  })();
  // A module that failed to load is tried again by the next call.
  glue.catch(() => (glue = undefined));
  return glue;
}

/** A Model from the weights and tokenizer given, or the packaged ones. */
async function load(options) {
  const [, weights, tokenizer] = await Promise.all([
    instantiate(options.module),
    bytesOf(options.weights ?? packaged("model.fp16.safetensors"), "weights"),
    bytesOf(options.tokenizer ?? packaged("tokenizer.json"), "tokenizer"),
  ]);
  try {
    return new Model(weights, new TextDecoder().decode(tokenizer));
  } catch (error) {
    if (error?.code) throw error;
    // Out of memory, or a trap in the module.
    throw coded("embedder/unavailable", `miniLmEmbedder: the model did not load: ${error?.message}`, error);
  }
}

/** The embedder over a loaded model. */
function embedderOf(model) {
  let broken = null;
  return Object.freeze({
    id: ID,
    dimensions: DIMENSIONS,
    async embed(texts, kind) {
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
        throw coded("embedder/input", "embed: texts must be an array of strings");
      }
      if (!KINDS.includes(kind)) throw coded("embedder/input", 'embed: kind must be "query" or "document"');
      if (broken) throw coded("embedder/unavailable", "MiniLM stopped after an internal error", broken);
      const vectors = [];
      let since = performance.now();
      for (const text of texts) {
        // One text at a time, letting other work run every 20 ms or so: a
        // whole memory takes seconds.
        if (performance.now() - since > 20) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          since = performance.now();
        }
        try {
          vectors.push(model.embed([text]));
        } catch (error) {
          // A trap in the module (a Rust panic): its state is unknown from here on.
          broken = error;
          throw coded("embedder/unavailable", `MiniLM failed: ${error.message}`, error);
        }
      }
      return vectors;
    },
  });
}

let packagedEmbedder;

/**
 * The all-MiniLM-L6-v2 embedder. With no options it loads the packaged
 * weights once, and every call returns the same embedder; `weights` (a
 * safetensors file, f32 or f16), `tokenizer` (tokenizer.json) and `module`
 * (the .wasm) may be given as bytes or URLs, and load a model of their own.
 */
export function miniLmEmbedder(options = {}) {
  if (options === null || typeof options !== "object") {
    return Promise.reject(coded("embedder/options", "miniLmEmbedder: options must be an object"));
  }
  const own = options.weights !== undefined || options.tokenizer !== undefined;
  if (!own) {
    packagedEmbedder ??= load(options).then(embedderOf);
    // A failed load is tried again by the next call.
    packagedEmbedder.catch(() => (packagedEmbedder = undefined));
    return packagedEmbedder;
  }
  return load(options).then(embedderOf);
}
