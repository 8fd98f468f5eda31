// The one WebAssembly instance every entry shares: the web-target glue, with
// each export guarded so a Rust panic throws an `internal/panic` Error (every
// function of the glue in guarded.js, which the build writes from the glue's
// own exports; the store, the prepared recall and memory here, and the recall
// functions made of it), and an idempotent async `init`. Entries
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
 * A recall made ready (API.md, "Recall by meaning"): the Rust one, its calls
 * guarded. One made before a panic replaced the instance it lived in cannot
 * be finished: it throws `internal/panic`.
 */
export class PreparedRecall {
  #raw;
  #born;

  constructor(text, query, options) {
    this.#born = generation();
    this.#raw = guard(() => new glue.PreparedRecall(text, query, options))();
  }

  /** The Rust recall, if the instance it lived in still runs. */
  #live() {
    return live(this.#raw, this.#born, "recall");
  }

  get items() {
    return guard(() => this.#live().items)();
  }

  finish() {
    return guard(() => this.#live().finish())();
  }

  finishWithVectors(embedder, queryVector, itemVectors) {
    return guard(() => this.#live().finish(embedder, queryVector, itemVectors))();
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

  constructor(text) {
    this.#born = generation();
    this.#raw = guard(() => new glue.PreparedMemory(text))();
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

  recallScored(query, options, listed) {
    return guard(() => this.#live().recall(query, options, undefined, undefined, undefined, listed, true))();
  }

  recallScoredWithVectors(query, options, embedder, queryVector, itemVectors, listed) {
    return guard(() => this.#live().recall(query, options, embedder, queryVector, itemVectors, listed, true))();
  }

  /** Release the WebAssembly memory now instead of at garbage collection. */
  free() {
    release(this.#raw, this.#born);
  }
}

export function recall(text, query, options) {
  return new PreparedRecall(text, query, options).finish();
}

export function recallItems(text) {
  const prepared = new PreparedRecall(text, "");
  try {
    return prepared.items;
  } finally {
    prepared.free();
  }
}

/** The engine's two halves in one call, for a caller that has the vectors. */
export function recallWithVectors(text, query, options, embedder, queryVector, itemVectors) {
  return new PreparedRecall(text, query, options).finishWithVectors(embedder, queryVector, itemVectors);
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
