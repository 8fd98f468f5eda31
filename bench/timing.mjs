// What bench/ab.mjs and bench/store.mjs time with: the median time of
// one call over about `budgetMs` (at least 5 calls), and its printed form.

/** The middle one of `times` (sorted in place). */
function middle(times) {
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** The median time in ms of one call of `fn`. */
export function median(fn, budgetMs = 60) {
  const times = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || times.length < 5) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return middle(times);
}

/** The median time in ms of one call of the async `fn`, awaited. */
export async function medianAsync(fn, budgetMs = 60) {
  const times = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || times.length < 5) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return middle(times);
}

/** `ms` with three digits, in ms or µs. */
export const fmt = (ms) => (ms >= 1 ? `${ms.toPrecision(3)} ms` : `${(ms * 1000).toPrecision(3)} µs`);
