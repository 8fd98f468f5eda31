// Long work in turns (docs/HUB.md, "Limits"): every Durable Object of a
// Worker may share one thread (workerd runs them all on one locally), so a
// team recall gives the thread back between its memories and the indexing
// between its batches: another team's request waits for one part at most,
// never for the whole. A timer, not a resolved promise: the continuation
// of a promise runs before any other request gets the thread. On Deno a
// timer waits a few milliseconds (its clamp of nested timers), which 100
// memories would add up: its hub takes a turn once a slice of work has run
// (`slicedTurn`); workerd's clock stands still while code runs, so there a
// turn is taken between every two parts.

/** Resolves once the requests waiting for the thread had their turn. */
export const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A turn taken only once `ms` milliseconds of work ran on this thread since
 * the last one (any other time a resolved promise).
 */
export function slicedTurn(ms) {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await nextTurn();
    last = performance.now();
  };
}
