// Build the editor (www/) with Vite into www/dist. Run directly or imported
// by `npm start` and the browser test step. The memdoc package must already
// be built (`npm run build`), since the page imports it from node_modules.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const repo = fileURLToPath(new URL("..", import.meta.url));

/** Every file under `dir`, sorted: what a build of the editor reads. */
function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A stamp of the editor's inputs (their contents): its sources, the built package, the locked npm packages. */
function inputs() {
  const hash = createHash("sha256");
  const given = ["www/index.html", "www/vite.config.mjs", "node_modules/.package-lock.json"].map((f) => join(repo, f));
  for (const file of [...given, ...["www/src", "www/public", "pkg", "pkg-minilm", "pkg-static"].flatMap((dir) => files(join(repo, dir)))]) {
    hash.update(`${file}\n`).update(existsSync(file) ? readFileSync(file) : "");
  }
  return hash.digest("hex");
}

/** Whether www/dist was built from the inputs there are now. */
export function wwwCurrent() {
  const stamp = join(repo, "www", "dist", ".inputs");
  return existsSync(stamp) && readFileSync(stamp, "utf8") === inputs();
}

/**
 * Build the editor into www/dist, or `outDir`. With `reuse`, a www/dist
 * built from the same inputs (a stamp beside it) is kept as it is: a
 * second `npm start` does not wait for Vite.
 */
export async function buildWww({ quiet = false, outDir = undefined, reuse = false } = {}) {
  if (!existsSync(`${repo}pkg/package.json`)) {
    throw new Error("pkg/ is missing: run `npm run build` first (the editor imports the built package)");
  }
  const dist = outDir ?? `${repo}www/dist`;
  const stamp = reuse ? inputs() : null;
  if (stamp !== null && existsSync(join(dist, ".inputs")) && readFileSync(join(dist, ".inputs"), "utf8") === stamp) return dist;
  await build({ configFile: `${repo}www/vite.config.mjs`, logLevel: quiet ? "warn" : "info", ...(outDir ? { build: { outDir } } : {}) });
  writeFileSync(join(dist, ".inputs"), stamp ?? inputs());
  return dist;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildWww().catch((error) => {
    console.error(`build-www: ${error.message}`);
    process.exit(1);
  });
}
