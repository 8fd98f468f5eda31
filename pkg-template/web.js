// Browsers and bundlers: the page must `await init()` (or the default export)
// before calling anything.
import { init } from "./core.js";

export * from "./core.js";
export { hybridRecall } from "./hybrid.js";
export default init;
