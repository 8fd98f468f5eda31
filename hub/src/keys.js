// API keys: `mdk.<team>.<keyId>.<secret>`. The team and key id are public
// (they route the request and name the key in listings and the audit); the
// secret is 256 random bits. Only the SHA-256 of the whole key is stored,
// and it is compared in constant time.

/** A team id: 1-64 of a-z, 0-9 and -, starting with a letter or digit. */
export const TEAM_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const TOKEN = new RegExp(`^mdk\\.(${TEAM_ID.source.slice(1, -1)})\\.([a-f0-9]{16})\\.([A-Za-z0-9_-]{43})$`);

function base64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new key of `team`: `{ id, secret }` where `secret` is the whole bearer token. */
export function newKey(team) {
  const id = hex(crypto.getRandomValues(new Uint8Array(8)));
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { id, secret: `mdk.${team}.${id}.${secret}` };
}

/** `{ team, id }` of a well-formed token, or null. */
export function parseKey(token) {
  const m = typeof token === "string" ? TOKEN.exec(token) : null;
  return m ? { team: m[1], id: m[2] } : null;
}

export async function hashKey(token) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
}

/** Constant-time equality of two strings of the same known length (hex digests). */
export function sameDigest(a, b) {
  if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The bearer token of an Authorization header, or null. */
export function bearer(header) {
  if (typeof header !== "string") return null;
  const m = /^Bearer ([\x21-\x7e]+)$/.exec(header);
  return m ? m[1] : null;
}

/**
 * The key a request presents: `Authorization: Bearer <key>`, or, for a
 * WebSocket from a browser (which cannot set headers), the subprotocol
 * `bearer.<key>` offered beside `memdoc`.
 */
export function requestKey(request) {
  const auth = request.headers.get("authorization");
  if (auth !== null) return { token: bearer(auth), present: true };
  const protocols = request.headers.get("sec-websocket-protocol");
  if (protocols !== null && request.headers.get("upgrade")?.toLowerCase() === "websocket") {
    const offered = protocols.split(",").map((p) => p.trim()).find((p) => p.startsWith("bearer."));
    if (offered) return { token: offered.slice("bearer.".length), present: true };
  }
  return { token: null, present: false };
}
