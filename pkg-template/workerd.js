// Cloudflare Workers (workerd): wasm cannot be compiled from bytes at run
// time, so the bundler hands us a compiled WebAssembly.Module.
import wasm from "./memdoc_bg.wasm";
import { init, initSync } from "./core.js";

initSync({ module: wasm });

export * from "./core.js";
export { hybridRecall } from "./hybrid.js";
export default init;
