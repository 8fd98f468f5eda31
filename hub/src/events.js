// Change events. The store's history is the source of truth: a subscriber
// remembers the last revision it was sent, and on every change signal it is
// sent each newer revision the history still holds, oldest first. Signals may
// be coalesced or repeated (kv.watch, concurrent saves); the messages are
// not. A subscriber that falls more than the kept history behind misses the
// revisions that fell out of it (the next message's revision says so).

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
