// The one WebAssembly instance every entry shares: the web-target glue, with
// each export guarded so a Rust panic throws an `internal/panic` Error, and an
// idempotent async `init`. Entries differ only in how they load the bytes.
import initGlue, * as glue from "./memdoc.js";
import { guard, settle } from "./panic.js";

export * from "./memdoc.js";

export const parse = guard(glue.parse);
export const render = guard(glue.render);
export const normalizeHeading = guard(glue.normalizeHeading);
export const usage = guard(glue.usage);
export const validate = guard(glue.validate);
export const planSave = guard(glue.planSave);
export const injectionBlock = guard(glue.injectionBlock);
export const merge = guard(glue.merge);
export const compact = guard(glue.compact);
export const recall = guard(glue.recall);
export const expire = guard(glue.expire);
export const diagnosticCodes = guard(glue.diagnosticCodes);
export const errorCodes = guard(glue.errorCodes);
export const version = guard(glue.version);

/**
 * The store of API.md. Each method returns a promise that settles with the
 * result, or rejects with a coded Error (`internal/panic` if Rust panicked,
 * synchronously or while the call was in progress).
 */
export class MemoryStore {
  #raw;

  constructor(host, options) {
    this.#raw = guard(() => new glue.MemoryStore(host, options))();
  }

  load(ref) {
    return settle(() => this.#raw.load(ref));
  }

  save(ref, updated, options) {
    return settle(() => this.#raw.save(ref, updated, options));
  }

  history(ref) {
    return settle(() => this.#raw.history(ref));
  }

  revision(ref, revision) {
    return settle(() => this.#raw.revision(ref, revision));
  }

  revert(ref, revision, options) {
    return settle(() => this.#raw.revert(ref, revision, options));
  }

  sweep(ref, options) {
    return settle(() => this.#raw.sweep(ref, options));
  }

  /** Release the WebAssembly memory now instead of at garbage collection. */
  free() {
    this.#raw.free();
  }
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
