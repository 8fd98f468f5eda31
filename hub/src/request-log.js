// Every request's trace (docs/HUB.md, "Observability"): its id in
// `X-Request-Id` (the client's when it is a plain token, else a new one),
// one JSON log line when it is answered, and its count and time in the
// metrics, plus the team's refusals in its stats. The line names the route
// by its template and the caller by team, member and key id: never a
// secret, a key or a memory's content. Every label comes from a closed set
// (route templates, the methods the hub knows or `other`, statuses), so
// what a client sends never makes a new series.
import { count } from "./stats.js";

export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The client's request id when it is a plain token, else a new one. */
export function requestIdOf(header) {
  return header != null && REQUEST_ID.test(header) ? header : crypto.randomUUID();
}

/** The methods counted and logged by name; any other is `other` (a client may send any token). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodOf = (method) => (METHODS.has(method) ? method : "other");

/** Hono's route path as the OpenAPI template ("/v1/teams/{team}/…"); "unmatched" for none. */
function templateOf(c) {
  const path = c.req.routePath;
  return !path || path === "*" || path === "/*" ? "unmatched" : path.replace(/:([A-Za-z]+)/g, "{$1}");
}

async function bytesOut(res) {
  const length = res.headers.get("content-length");
  if (length !== null) return Number(length);
  if (res.body === null || res.status === 101) return 0;
  return (await res.clone().arrayBuffer()).byteLength;
}

/**
 * The first middleware of the application.
 * @param {import("hono").Hono} app
 * @param {{ metrics: import("./metrics.js").Metrics, log: (line: string) => void }} o
 */
export function mountRequestLog(app, { metrics, log }) {
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header("x-request-id"));
    // For the requests a route makes of the hub itself (the MCP tools'): one id.
    c.set("requestId", requestId);
    // Read before the route runs: after a WebSocket upgrade Deno takes
    // the request's headers with it.
    const length = c.req.header("content-length");
    const bytesIn = length !== undefined && /^[0-9]+$/.test(length) ? Number(length) : c.req.raw.body === null ? 0 : null;
    await next();
    const res = c.res;
    // A WebSocket upgrade's response is the runtime's own: workerd takes no
    // more headers on it, and Deno no other object.
    if (res.status !== 101) res.headers.set("x-request-id", requestId);
    const ms = Math.round((performance.now() - started) * 1000) / 1000;
    const route = templateOf(c);
    const method = methodOf(c.req.method);
    const who = c.get("caller");
    metrics.request({ route, method, status: res.status, seconds: ms / 1000 });
    if (who?.storage && res.status >= 400 && res.status < 500) await count(who.storage, { refusals: 1 }).catch(() => {});
    log(
      JSON.stringify({
        at: new Date().toISOString(),
        requestId,
        method,
        route,
        status: res.status,
        ms,
        team: who?.team ?? null,
        member: who?.member ?? null,
        keyId: who?.keyId ?? null,
        bytesIn,
        bytesOut: await bytesOut(res),
      }),
    );
  });
}
