// Vite builds the editor into www/dist: CodeMirror and the memdoc package
// come from node_modules, and the package's wasm is emitted as a local asset
// (never inlined, never fetched from a CDN), so the page works offline.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  clearScreen: false,
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
