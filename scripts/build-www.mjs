// Build the editor (www/) with Vite into www/dist. Run directly or imported
// by `npm start` and the browser test step. The memdoc package must already
// be built (`npm run build`), since the page imports it from node_modules.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const repo = fileURLToPath(new URL("..", import.meta.url));

export async function buildWww({ quiet = false } = {}) {
  if (!existsSync(`${repo}pkg/package.json`)) {
    throw new Error("pkg/ is missing: run `npm run build` first (the editor imports the built package)");
  }
  await build({ configFile: `${repo}www/vite.config.mjs`, logLevel: quiet ? "warn" : "info" });
  return `${repo}www/dist`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildWww().catch((error) => {
    console.error(`build-www: ${error.message}`);
    process.exit(1);
  });
}
