// Vite builds the editor into www/dist: CodeMirror and the memdoc package
// come from node_modules, and the package's wasm is emitted as a local asset
// (never inlined, never fetched from a CDN), so the page works offline.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
/** Where each package of the embedders' files is built (scripts/build.mjs). */
const built = {
  memdoc: fileURLToPath(new URL("../pkg/", import.meta.url)),
  "@memdoc/minilm": fileURLToPath(new URL("../pkg-minilm/", import.meta.url)),
  "@memdoc/static": fileURLToPath(new URL("../pkg-static/", import.meta.url)),
};

/**
 * The embedders' files (the static table, MiniLM's weights, tokenizer and
 * .wasm) when they are not built yet (`node scripts/build.mjs --core`, as
 * `npm start` does before its first URL): each URL names a file the server
 * does not have, so recall by meaning fails to load and says so
 * (`semantic.degraded`) until the build that has them. Everything else in
 * the page works.
 */
const embeddersNotBuilt = {
  name: "memdoc-embedders-not-built",
  resolveId(source) {
    const [, name, file] = /^(memdoc|@memdoc\/minilm|@memdoc\/static)\/([^?]+)\?url$/.exec(source) ?? [];
    if (name && !existsSync(`${built[name]}${file}`)) return `\0not-built:${name}/${file}`;
    return null;
  },
  load(id) {
    if (!id.startsWith("\0not-built:")) return null;
    return `export default ${JSON.stringify(`./not-built/${id.slice("\0not-built:".length)}`)};`;
  },
};

export default defineConfig({
  root,
  base: "./",
  clearScreen: false,
  plugins: [embeddersNotBuilt],
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
