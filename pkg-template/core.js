// The one WebAssembly instance every entry shares: the web-target glue, with
// each export guarded so a Rust panic throws an `internal/panic` Error (every
// function of the glue in guarded.js, which the build writes from the glue's
// own exports; the store, the prepared memory, and the prepared recall and
// the recall functions made of it here), and an idempotent async `init`. Entries
// differ only in how they load the bytes.
import initGlue, * as glue from "./memdoc.js";
import { generation, guard, settle } from "./panic.js";

export * from "./guarded.js";

/**
 * The store of API.md. Each method returns a promise that settles with the
 * result, or rejects with a coded Error (`internal/panic` if Rust panicked,
 * synchronously or while the call was in progress). After a panic the next
 * call runs on a fresh WebAssembly instance, with a new Rust store over the
 * same host and options: what the host acknowledged is read from it again.
 */
export class MemoryStore {
  #raw;
  #born;
  #host;
  #options;

  constructor(host, options) {
    this.#host = host;
    this.#options = options;
    this.#raw = this.#make();
  }

  /** A Rust store over the host, in the instance that runs now. */
  #make() {
    const born = generation();
    const raw = guard(() => new glue.MemoryStore(this.#host, this.#options))();
    this.#born = born;
    return raw;
  }

  /** The Rust store, made again if a panic replaced the instance it lived in. */
  #store() {
    if (this.#born !== generation()) {
      // Stale: detached, never freed (its address means nothing in the new instance).
      this.#raw.__destroy_into_raw();
      this.#raw = this.#make();
    }
    return this.#raw;
  }

  load(ref) {
    return settle(() => this.#store().load(ref));
  }

  save(ref, updated, options) {
    return settle(() => this.#store().save(ref, updated, options));
  }

  history(ref) {
    return settle(() => this.#store().history(ref));
  }

  revision(ref, revision) {
    return settle(() => this.#store().revision(ref, revision));
  }

  revert(ref, revision, options) {
    return settle(() => this.#store().revert(ref, revision, options));
  }

  sweep(ref, options) {
    return settle(() => this.#store().sweep(ref, options));
  }

  exportRecords(ref) {
    return settle(() => this.#store().exportRecords(ref));
  }

  importRecords(ref, records) {
    return settle(() => this.#store().importRecords(ref, records));
  }

  purge(ref) {
    return settle(() => this.#store().purge(ref));
  }

  storedRevision(ref) {
    return settle(() => this.#store().storedRevision(ref));
  }

  headKey(ref) {
    return guard(() => this.#store().headKey(ref))();
  }

  /** Release the WebAssembly memory now instead of at garbage collection. */
  free() {
    release(this.#raw, this.#born);
  }
}

/**
 * `raw`, a Rust object made in instance `born`, if that instance still runs;
 * otherwise it is detached and `internal/panic` thrown.
 */
function live(raw, born, what) {
  if (born !== generation()) {
    raw.__destroy_into_raw();
    throw glue.__panicError(`a panic in another call replaced the WebAssembly instance since this ${what} was prepared`);
  }
  return raw;
}

/** Free `raw`, made in instance `born` (one of a replaced instance is only detached: its address means nothing now). */
function release(raw, born) {
  if (born === generation()) raw.free();
  else raw.__destroy_into_raw();
}

/**
 * A recall made ready (API.md, "Recall by meaning"): a prepared memory (the
 * Rust `PreparedMemory`) and the query and options it is recalled with once,
 * both checked at once as `recall` checks them. One made before a panic
 * replaced the instance it lived in cannot be finished: it throws
 * `internal/panic`.
 */
export class PreparedRecall {
  #raw;
  #born;
  #query;
  #options;

  constructor(text, query, options) {
    this.#born = generation();
    this.#raw = guard(() => new glue.PreparedMemory(text))();
    try {
      // Against an empty memory: what the options are checked by, at no cost.
      once("", (empty) => empty.recall(query, options, undefined, undefined, undefined, 0, false, true));
    } catch (error) {
      release(this.#raw, this.#born);
      throw error;
    }
    this.#query = query;
    this.#options = options;
  }

  /** The Rust memory, if the instance it lived in still runs. */
  #live() {
    return live(this.#raw, this.#born, "recall");
  }

  get items() {
    return guard(() => this.#live().items)();
  }

  finish() {
    return this.#finish();
  }

  finishWithVectors(embedder, queryVector, itemVectors) {
    return this.#finish(embedder, queryVector, itemVectors);
  }

  /** The recall, once: the memory is released whatever its outcome. */
  #finish(embedder, queryVector, itemVectors) {
    const raw = guard(() => this.#live())();
    try {
      return guard(() => raw.recall(this.#query, this.#options, embedder, queryVector, itemVectors, undefined, false, true))();
    } finally {
      release(raw, this.#born);
    }
  }

  /** Release the WebAssembly memory now instead of finishing. */
  free() {
    release(this.#raw, this.#born);
  }
}

/**
 * A memory made ready for recall (API.md, "Recall by meaning"): the Rust
 * one, its calls guarded, recalled from as often as asked until `free`. One
 * made before a panic replaced the instance it lived in throws
 * `internal/panic`.
 */
export class PreparedMemory {
  #raw;
  #born;
  #held = null;

  constructor(text) {
    this.#born = generation();
    this.#raw = guard(() => new glue.PreparedMemory(text))();
  }

  /** The embedder and dimensions of the item vectors held (`holdVectors`), null before. */
  get heldVectors() {
    return this.#held;
  }

  holdVectors(embedder, itemVectors, dimensions) {
    if (typeof embedder !== "string") throw coded("options/invalid", "holdVectors: embedder must be a string");
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 0xffff_ffff) throw coded("options/invalid-vectors", "holdVectors: dimensions must be a whole number from 1");
    guard(() => this.#live().hold(itemVectors, dimensions))();
    this.#held = { embedder, dimensions };
  }

  /** The Rust memory, if the instance it lived in still runs. */
  #live() {
    return live(this.#raw, this.#born, "memory");
  }

  get items() {
    return guard(() => this.#live().items)();
  }

  recall(query, options, listed) {
    return guard(() => this.#live().recall(query, options, undefined, undefined, undefined, listed))();
  }

  recallWithVectors(query, options, embedder, queryVector, itemVectors, listed) {
    return guard(() => this.#live().recall(query, options, embedder, queryVector, itemVectors, listed))();
  }

  recallWithHeldVectors(query, options, queryVector, listed) {
    return guard(() => this.#live().recall(query, options, this.#heldEmbedder(), queryVector, undefined, listed))();
  }

  recallScored(query, options, listed) {
    return guard(() => this.#live().recall(query, options, undefined, undefined, undefined, listed, true))();
  }

  recallScoredWithVectors(query, options, embedder, queryVector, itemVectors, listed) {
    return guard(() => this.#live().recall(query, options, embedder, queryVector, itemVectors, listed, true))();
  }

  recallScoredWithHeldVectors(query, options, queryVector, listed) {
    return guard(() => this.#live().recall(query, options, this.#heldEmbedder(), queryVector, undefined, listed, true))();
  }

  /** The held vectors' embedder (`options/invalid-vectors` when none are held). */
  #heldEmbedder() {
    if (this.#held === null) throw coded("options/invalid-vectors", "no item vectors are held: holdVectors first");
    return this.#held.embedder;
  }

  /** Release the WebAssembly memory now instead of at garbage collection. */
  free() {
    release(this.#raw, this.#born);
  }
}

/** A coded error of the wrapper's own checks. */
function coded(code, message) {
  return Object.assign(new TypeError(message), { code });
}

/**
 * `use` of `text` made ready for recall, once: the Rust memory is released
 * whatever the outcome (detached if a panic replaced its instance). Its
 * recall is asked with `once`, so that it looks only at the entries that
 * answer (a memory prepared for many recalls looks at every entry once).
 */
function once(text, use) {
  const born = generation();
  const raw = guard(() => new glue.PreparedMemory(text))();
  try {
    return guard(() => use(raw))();
  } finally {
    release(raw, born);
  }
}

export function recall(text, query, options) {
  return once(text, (memory) => memory.recall(query, options, undefined, undefined, undefined, undefined, false, true));
}

export function recallItems(text) {
  return once(text, (memory) => memory.items);
}

/** The engine's two halves in one call, for a caller that has the vectors. */
export function recallWithVectors(text, query, options, embedder, queryVector, itemVectors) {
  return once(text, (memory) => memory.recall(query, options, embedder, queryVector, itemVectors, undefined, false, true));
}

let ready;

/**
 * Load the WebAssembly module once; later calls return the same promise.
 * `moduleOrPath` defaults to `memdoc_bg.wasm` next to this file.
 */
export function init(moduleOrPath) {
  ready ??= initGlue(moduleOrPath === undefined ? undefined : { module_or_path: moduleOrPath }).then(
    () => undefined,
    (error) => {
      ready = undefined;
      throw error;
    },
  );
  return ready;
}

export { initSync } from "./memdoc.js";
export { lruCache, vectorKey } from "./vectors.js";
