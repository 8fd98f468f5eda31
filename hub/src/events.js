// Change events. The store's history is the source of truth: a subscriber
// remembers the last revision it was sent, and on every change signal it is
// sent each newer revision the history still holds, oldest first. Signals may
// be coalesced or repeated (kv.watch, concurrent saves); the messages are
// not. A subscriber that falls more than the kept history behind misses the
// revisions that fell out of it (the next message's revision says so).
//
// Every change is one history load for all the subscribers of a memory
// (`fanOut`), which first closes the sockets of keys refused now. Sockets
// are capped per key and per team (`socketsRefusal`), and the runtime closes
// the sockets of a key revoked, a member disabled and a team deleted
// (`runtime.closeSockets`) at once.
import { readKey } from "./data/key.js";
import { keyRefusal } from "./members.js";
import { HubProblem } from "./problem.js";

/** Open event sockets one key may hold. */
export const SOCKETS_PER_KEY = 16;
/** Open event sockets of one team (every key, every memory). */
export const SOCKETS_PER_TEAM = 256;

/** The refusal of one more socket for a key holding `key` of the team's `team` open sockets, or null. */
export function socketsRefusal({ key, team }) {
  if (key >= SOCKETS_PER_KEY) return new HubProblem(429, "events/too-many-sockets", `This key holds ${key} open event sockets, the most one key may (${SOCKETS_PER_KEY}): close one first.`);
  if (team >= SOCKETS_PER_TEAM) return new HubProblem(429, "events/too-many-sockets", `The team holds ${team} open event sockets, the most one team may (${SOCKETS_PER_TEAM}): close one first.`);
  return null;
}

/**
 * The close of a socket whose key is refused now: 4401 (the application
 * range's echo of HTTP 401) with the refusal's code as the reason; 4404
 * `team/not-found` when the team is deleted.
 */
export const closeOf = (code) => ({ code: 4401, reason: code });
export const TEAM_DELETED = { code: 4404, reason: "team/not-found" };

/**
 * Close a socket when its key ends (`expiresAt`, RFC 3339, or null) by a
 * timer, when that is at most `withinMs` away (at most setTimeout's 2^31 - 1
 * ms); returns the timer's cancel. Any other socket of an ended key is
 * closed by the first change after its end (`fanOut`).
 * @param {string | null} expiresAt
 * @param {(close: { code: number, reason: string }) => void} close
 * @param {number} [withinMs]
 */
export function closeAtExpiry(expiresAt, close, withinMs = 2 ** 31 - 1) {
  const ms = expiresAt === null ? Infinity : Date.parse(expiresAt) - Date.now();
  if (!(ms <= withinMs)) return () => {};
  const timer = setTimeout(() => close(closeOf("auth/key-expired")), Math.max(0, ms));
  return () => clearTimeout(timer);
}

/** Of `keyIds`, those refused now (revoked, expired, of a disabled member), with their close. */
export async function refusedKeys(storage, keyIds) {
  const out = new Map();
  for (const keyId of keyIds) {
    const record = await readKey(storage, keyId);
    const refusal = record === undefined ? { code: "auth/invalid-key" } : await keyRefusal(storage, record);
    if (refusal) out.set(keyId, closeOf(refusal.code));
  }
  return out;
}

/**
 * @typedef {object} Subscriber a socket of a memory's events, as the runtime holds it
 * @property {string} keyId
 * @property {number} sent the last revision it was sent
 * @property {(text: string) => void} send
 * @property {(close: { code: number, reason: string }) => void} close
 */

/**
 * Send each subscriber of `ref` the revisions it has not had (one history
 * load for all of them); the sockets of keys refused now are closed
 * instead. Updates each one's `sent`.
 * @param {Subscriber[]} subscribers
 */
export async function fanOut(storage, store, ref, subscribers) {
  const refused = await refusedKeys(storage, new Set(subscribers.map((s) => s.keyId)));
  const live = [];
  for (const s of subscribers) {
    if (refused.has(s.keyId)) s.close(refused.get(s.keyId));
    else live.push(s);
  }
  if (live.length === 0) return;
  const events = await eventsAfter(store, ref, Math.min(...live.map((s) => s.sent)));
  for (const s of live) {
    for (const e of events) {
      if (e.revision <= s.sent) continue;
      s.send(JSON.stringify(e));
      s.sent = e.revision;
    }
  }
}

/** One event per revision after `after`, oldest first. */
export async function eventsAfter(store, ref, after) {
  const history = await store.history(ref);
  return history
    .filter((h) => h.revision > after)
    .sort((a, b) => a.revision - b.revision)
    .map((h) => ({ revision: h.revision, updatedBy: h.actor, chars: h.chars, at: h.at }));
}

/** The message to subscribers of a task memory that expired (its last). */
export const EXPIRED = JSON.stringify({ expired: true });

/** Messages a subscriber may send per 10 s; past them it is closed as a flood. */
export const CLIENT_MESSAGE_LIMIT = 100;

/**
 * The close code of a flood: 4429, the application range's echo of HTTP 429
 * (1008 would say it too, but a Deno server socket, like a browser's, may
 * only close with 1000 or 3000-4999).
 */
export const FLOOD_CLOSE = { code: 4429, reason: "rate/limited" };

/**
 * The last message a flooding subscriber gets, before the close (which its
 * own frames still in flight can turn into an abnormal 1006 on its side).
 */
export const FLOOD_PROBLEM = JSON.stringify({
  type: "https://github.com/memdoc/memdoc/blob/main/docs/HUB.md#rate-limited",
  title: "Too Many Requests",
  status: 429,
  detail: `More than ${CLIENT_MESSAGE_LIMIT} messages in 10 s; subscribers only listen.`,
  code: "rate/limited",
});
