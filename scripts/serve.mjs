// Serve the built editor (www/dist) with Vite's preview server, shared by
// `npm start` and the browser tests: on 127.0.0.1 only, the production
// build exactly as built, with the MIME types the page needs
// (application/wasm lets the browser compile the module while it streams).
import { fileURLToPath } from "node:url";
import { preview } from "vite";

const repo = fileURLToPath(new URL("..", import.meta.url));

/**
 * Serve www/dist on 127.0.0.1:`port` (0: a port chosen by the system). A
 * port already in use is replaced by the next free one unless `strictPort`.
 * Resolves to `{ url, port, close() }`.
 */
export async function serveEditor({ port = 0, strictPort = false } = {}) {
  const server = await preview({
    configFile: `${repo}www/vite.config.mjs`,
    logLevel: "warn",
    // Only the built files: a missing file is a 404, not the page again.
    appType: "mpa",
    preview: { host: "127.0.0.1", port, strictPort, open: false },
  });
  const actual = server.httpServer.address().port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    close: () => server.close(),
  };
}
