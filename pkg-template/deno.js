// Deno: top-level await, so a plain import is ready to use.
import { init } from "./core.js";

await init(new URL("./memdoc_bg.wasm", import.meta.url));

export * from "./core.js";
export { hybridRecall } from "./hybrid.js";
export default init;
