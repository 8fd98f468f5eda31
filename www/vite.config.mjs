// Vite builds the editor into www/dist: CodeMirror and the memdoc package
// come from node_modules, and the package's wasm is emitted as a local asset
// (never inlined, never fetched from a CDN), so the page works offline.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

import { E5_MODEL_PATH } from "./src/e5-model-path.js";

const root = fileURLToPath(new URL(".", import.meta.url));
/** Where each package of the embedders' files is built (scripts/build.mjs). */
const built = {
  memdoc: fileURLToPath(new URL("../pkg/", import.meta.url)),
  "@memdoc/minilm": fileURLToPath(new URL("../pkg-minilm/", import.meta.url)),
  "@memdoc/static": fileURLToPath(new URL("../pkg-static/", import.meta.url)),
};

/** What a page that uses a file not built yet gets: an error naming it. */
const NOT_BUILT = "recall by meaning is not ready: the embedders are not built yet (npm start builds them after printing its URL, then says so; reload then)";

/**
 * The embedders' files (the static table, MiniLM's weights, tokenizer and
 * .wasm, e5's .wasm, and the JavaScript glue of their modules) when they
 * are not built yet (`node scripts/build.mjs --core`, as `npm start` does
 * before its first URL): each file's URL names a file the server does not have, and the
 * glue's exports throw NOT_BUILT when used, so recall by meaning fails to
 * load and says so (`semantic.degraded`) until the build that has them.
 * Everything else in the page works.
 */
const embeddersNotBuilt = {
  name: "memdoc-embedders-not-built",
  // Before Vite's own: their `.wasm` and `.json` handling goes by the id.
  enforce: "pre",
  resolveId(source, importer) {
    const [, name, file] = /^(memdoc|@memdoc\/minilm|@memdoc\/static)\/([^?]+)\?url$/.exec(source) ?? [];
    if (name && !existsSync(`${built[name]}${file}`)) return `\0not-built-url:${name}/${file}.js`;
    // The glue of an embedder's module (minilm, e5), imported by the package's embedders.
    const [, crate] = /^\.\/(minilm|e5)\/\1\.js$/.exec(source) ?? [];
    const glue = `${built.memdoc}embedders/${crate}/${crate}.js`;
    if (crate && importer?.startsWith(`${built.memdoc}embedders/`) && !existsSync(glue)) return `\0not-built-glue:${crate}.js`;
    return null;
  },
  load(id) {
    if (id.startsWith("\0not-built-url:")) return `export default ${JSON.stringify(`./not-built/${id.slice("\0not-built-url:".length, -".js".length)}`)};`;
    const [, crate] = /^\0not-built-glue:(\w+)\.js$/.exec(id) ?? [];
    if (!crate) return null;
    // The names the package's embedders import from the glue.
    const names = new Set();
    for (const file of readdirSync(`${built.memdoc}embedders`).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(`${built.memdoc}embedders/${file}`, "utf8");
      for (const [, list] of text.matchAll(new RegExp(`import\\s+(?:\\w+\\s*,\\s*)?\\{([^}]*)\\}\\s+from\\s+"\\./${crate}/${crate}\\.js"`, "g"))) {
        for (const part of list.split(",")) if (part.trim()) names.add(part.trim().split(/\s+as\s+/)[0]);
      }
    }
    const missing = "new Proxy(function () {}, { get: fail, apply: fail, construct: fail })";
    return [
      `const fail = () => { throw new Error(${JSON.stringify(NOT_BUILT)}); };`,
      `export default ${missing};`,
      ...[...names].map((n) => `export const ${n} = ${missing};`),
    ].join("\n");
  },
};

/**
 * The multilingual-e5-small model file (72 MB, in no npm package), served
 * at E5_MODEL_PATH beside the page when the machine has it:
 * MEMDOC_E5_MODEL, or the copy `bash scripts/setup` put in target/models/.
 * Without it the path is a 404 and the recall panel keeps MiniLM or the
 * static table for every memory (recall-panel.js).
 */
const e5Model = {
  name: "memdoc-e5-model",
  configurePreviewServer: serveE5,
  configureServer: serveE5,
};

function serveE5(server) {
  const file = process.env.MEMDOC_E5_MODEL ?? fileURLToPath(new URL("../target/models/multilingual-e5-small/e5-small-q4.bin", import.meta.url));
  server.middlewares.use((req, res, next) => {
    const path = new URL(req.url, "http://page/").pathname;
    if (path !== `/${E5_MODEL_PATH}` || !["GET", "HEAD"].includes(req.method) || !existsSync(file)) return next();
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
}

export default defineConfig({
  root,
  base: "./",
  clearScreen: false,
  plugins: [embeddersNotBuilt, e5Model],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // A data: URL wasm would be blocked by the page's CSP and bloat the bundle.
    assetsInlineLimit: 0,
    sourcemap: true,
    // CodeMirror with Markdown (and the HTML it embeds) is one ~600 kB chunk; that is expected.
    chunkSizeWarningLimit: 1024,
  },
  // Pre-bundling would move the package's glue away from its .wasm file.
  optimizeDeps: { exclude: ["memdoc"] },
  server: { host: "127.0.0.1", port: 5173, strictPort: false },
  // `npm start` and the browser tests serve the build with `preview()` (scripts/serve.mjs).
  preview: { host: "127.0.0.1", port: 5173, strictPort: false },
});
