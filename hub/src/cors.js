// Cross-origin requests: any origin may call the hub (a key, never a
// cookie, is the credential), so a preflight is answered at once and every
// answer carries the same CORS headers.

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, PUT, POST, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, if-match, if-none-match, x-request-id",
  "access-control-expose-headers": "etag, retry-after, location, x-request-id",
  "access-control-max-age": "600",
};

/** @type {import("hono").MiddlewareHandler} */
export async function cors(c, next) {
  if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
  await next();
  // A WebSocket upgrade's response cannot take more headers in workerd.
  if (c.res.status !== 101) for (const [k, v] of Object.entries(CORS_HEADERS)) c.res.headers.set(k, v);
}
