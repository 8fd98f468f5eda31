// A small static file server for the built editor (www/dist), shared by
// `npm start` and the browser tests. It serves files only from inside its
// root, with the MIME types the page needs (application/wasm lets the
// browser compile the module while it streams).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

async function resolveFile(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  if (path.includes("\0")) return null;
  const file = resolve(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return resolveFile(root, join(path, "index.html"));
    return info.isFile() ? file : null;
  } catch {
    return null;
  }
}

function listen(server, host, port) {
  return new Promise((ok, fail) => {
    const onError = (error) => { server.off("listening", onListening); fail(error); };
    const onListening = () => { server.off("error", onError); ok(); };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/**
 * Serve `dir` on `host:port`. With `fallback`, a port already in use is
 * replaced by a free one chosen by the system. Resolves to
 * `{ server, url, port, close() }`.
 */
export async function serveStatic(dir, { host = "127.0.0.1", port = 0, fallback = true } = {}) {
  const root = resolve(dir);
  const server = createServer(async (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const file = await resolveFile(root, new URL(request.url, "http://x").pathname);
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-length": body.length,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      });
      response.end(request.method === "HEAD" ? undefined : body);
    } catch {
      response.writeHead(500).end();
    }
  });
  try {
    await listen(server, host, port);
  } catch (error) {
    if (!(fallback && error.code === "EADDRINUSE" && port !== 0)) throw error;
    await listen(server, host, 0);
  }
  const actual = server.address().port;
  return {
    server,
    port: actual,
    url: `http://${host}:${actual}/`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}
