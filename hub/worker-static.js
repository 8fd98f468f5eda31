// The hub's Worker with the static embedder (`wrangler deploy --env
// static`, wrangler.toml): worker.js and the static table's loader, which is
// imported first so that worker.js finds it when its settings are checked.
import "./src/worker-static-table.js";

export { Team, default } from "./worker.js";
