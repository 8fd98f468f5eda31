// Types of every entry (node, deno, workerd, browser): the generated glue's
// declarations, which include the API types (generated from the Rust
// types, src/wasm/generated.d.ts), plus `init`.
import type { InitInput } from "./memdoc.js";

export * from "./memdoc.js";

/**
 * Load the WebAssembly module. Idempotent: later calls return the same
 * promise. Required in browsers before any other call; in Node, Deno and
 * Workers the module is loaded on import and this resolves at once.
 */
export declare function init(moduleOrPath?: InitInput | Promise<InitInput>): Promise<void>;
export default init;
