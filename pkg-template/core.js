// The one WebAssembly instance every entry shares: the web-target glue, with
// each export guarded so a Rust panic throws an `internal/panic` Error, and an
// idempotent async `init`. Entries differ only in how they load the bytes.
import initGlue, * as glue from "./memdoc.js";
import { guard } from "./panic.js";

export * from "./memdoc.js";

export const parse = guard(glue.parse);
export const render = guard(glue.render);
export const normalizeHeading = guard(glue.normalizeHeading);
export const usage = guard(glue.usage);
export const validate = guard(glue.validate);
export const planSave = guard(glue.planSave);
export const injectionBlock = guard(glue.injectionBlock);
export const diagnosticCodes = guard(glue.diagnosticCodes);
export const errorCodes = guard(glue.errorCodes);
export const version = guard(glue.version);

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
