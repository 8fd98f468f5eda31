// Long work in turns (docs/HUB.md, "Limits"): every Durable Object of a
// Worker may share one thread (workerd runs them all on one locally), so a
// team recall gives the thread back between its memories and the indexing
// between its batches: another team's request waits for one part at most,
// never for the whole. A timer, not a resolved promise: the continuation
// of a promise runs before any other request gets the thread. On Deno a
// timer waits 1 to 3 milliseconds, which 100
// memories would add up: its hub takes its turns through an asynchronous
// operation instead (`operationTurn`), which gives the server's connections
// their turn as a timer does but resumes as soon as they had it, and once a
// slice of work has run (`slicedTurn`); workerd's clock stands still while
// code runs, so there a timer turn is taken between every two parts.

/** Resolves once the requests waiting for the thread had their turn. */
export const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

const ONE_BYTE = new Uint8Array(1);

/**
 * A turn through the event loop by way of an asynchronous operation of the
 * host (a digest of one byte, done off the thread): Deno polls every ready
 * connection before it resumes the work, as after a timer, without a
 * timer's 1 to 3 ms of waiting. A microtask or `setImmediate` would not let
 * them run at all.
 */
export const operationTurn = () => crypto.subtle.digest("SHA-256", ONE_BYTE);

/**
 * A turn (`take`, a timer turn by default) taken only once `ms`
 * milliseconds of work ran on this thread since the last one (any other
 * time a resolved promise).
 */
export function slicedTurn(ms, take = nextTurn) {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await take();
    last = performance.now();
  };
}
