// Request bodies: the content type is checked first, then the body is read
// with a byte cap, from Content-Length when there is one and while reading
// otherwise, so an oversized body is refused before it is buffered; and with
// a deadline, so a client that stalls mid-body is answered 408. A JSON body
// whose strings hold a lone surrogate (`"\ud800"`, valid JSON but no text)
// is refused, not saved as U+FFFD. `drain` reads what an error response
// left unread, so that the connection can carry the client's next request.
import { HubProblem } from "./problem.js";

function mediaType(request) {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * The body's bytes: at most `limits.bodyCap` of them (else 413), all within
 * `limits.bodyTimeoutMs` (else 408).
 */
export async function readCapped(request, limits) {
  const cap = limits.bodyCap;
  const tooLarge = () => new HubProblem(413, "http/payload-too-large", `The body is over the hub's limit of ${cap} bytes.`, { extra: { limit: cap } });
  const declared = request.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > cap)) {
    if (!/^\d+$/.test(declared)) throw new HubProblem(400, "http/invalid-content-length", "Content-Length is not a number of bytes.");
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts = [];
  let total = 0;
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ late: true }), limits.bodyTimeoutMs);
  });
  try {
    for (;;) {
      let next;
      try {
        next = await Promise.race([reader.read(), deadline]);
      } catch {
        throw new HubProblem(400, "http/body-aborted", "The body ended before it was complete.");
      }
      if (next.late) {
        reader.cancel().catch(() => {});
        throw new HubProblem(408, "http/request-timeout", `The body did not arrive within ${limits.bodyTimeoutMs} ms.`);
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > cap) {
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      parts.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
}

function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HubProblem(400, "request/invalid-utf8", "The body is not valid UTF-8.");
  }
}

/** Any JSON body (`application/json`) whose strings are text. */
export async function readJsonValue(request, limits) {
  if (mediaType(request) !== "application/json") {
    throw new HubProblem(415, "http/unsupported-media-type", "Send application/json.");
  }
  const text = decode(await readCapped(request, limits));
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HubProblem(400, "request/malformed-json", "The body is not valid JSON.");
  }
  if (!wellFormed(value)) throw new HubProblem(400, "request/invalid-body", "A string in the body holds a lone surrogate (an escape like \\ud800 that is not half of a pair): that is not text.");
  return value;
}

/** A JSON object body (`application/json`). */
export async function readJson(request, limits) {
  const value = await readJsonValue(request, limits);
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new HubProblem(400, "request/invalid-body", "The body must be a JSON object.");
  }
  return value;
}

/** Whether every string (and property name) in a parsed JSON value is well-formed UTF-16. */
export function wellFormed(value) {
  // A loop, not recursion: JSON nests as deep as its bytes allow.
  const pending = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === "string") {
      if (!v.isWellFormed()) return false;
    } else if (Array.isArray(v)) {
      for (const inner of v) pending.push(inner);
    } else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) {
        if (!k.isWellFormed()) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

/**
 * Read and drop the rest of a request body an error response did not read,
 * at most `limits.bodyCap` bytes within `limits.bodyTimeoutMs`; false when
 * the body was longer or slower (the connection should then close).
 */
export async function drain(request, limits) {
  if (!request.body || request.bodyUsed) return true;
  try {
    await readCapped(request, limits);
    return true;
  } catch {
    return false;
  }
}

/** The body as UTF-8 text (400 otherwise), whatever its content type. */
export async function readText(request, limits) {
  return decode(await readCapped(request, limits));
}

/** A memory document: `text/markdown` (the document itself) or `application/json` `{content}`. */
export async function readDocument(request, limits) {
  const type = mediaType(request);
  if (type === "text/markdown") return readText(request, limits);
  if (type === "application/json") {
    const body = await readJson(request, limits);
    if (typeof body.content !== "string") {
      throw new HubProblem(400, "request/invalid-body", "`content` must be a string (the whole document).");
    }
    return body.content;
  }
  throw new HubProblem(415, "http/unsupported-media-type", "Send text/markdown (the document) or application/json {content}.");
}

/**
 * The middleware that keeps a connection usable after an error answered
 * before the body was read: the body is read and dropped (bounded), or the
 * connection closed, so that the client's next request on it is not met by
 * a reset.
 * @type {import("hono").MiddlewareHandler<import("./context.js").Env>}
 */
export async function drainAfterError(c, next) {
  await next();
  const { status } = c.res;
  if (status === 408 || status === 413 || (status >= 400 && !(await drain(c.req.raw, c.var.hub.config)))) c.res.headers.set("connection", "close");
}
