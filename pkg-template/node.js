// Node: load the bytes from disk synchronously, so `import { validate } from
// "memdoc"` works with no init call.
import { readFileSync } from "node:fs";
import { init, initSync } from "./core.js";

initSync({ module: readFileSync(new URL("./memdoc_bg.wasm", import.meta.url)) });

export * from "./core.js";
export { hybridRecall } from "./hybrid.js";
export default init;
