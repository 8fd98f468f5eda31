// The JavaScript half of encode.rs beside this file (text in): how much of
// two strings is the same, for a text converted against the kept one
// (`Kept::near`).

/**
 * How many UTF-16 units `a` and `b` share at their start, and then at their
 * end, written to `shared` (a `Uint32Array` of two). The stretches compared
 * double in length, and the last one is halved until the first difference
 * is found. `===` of two slices compares them in the host's own code, faster
 * than `startsWith` (figures in BENCHMARKS.md). Neither count ends between
 * the two halves of a surrogate pair.
 */
export function common(a, b, shared) {
  const n = Math.min(a.length, b.length);
  let start = sameFor(n, (from, to) => a.slice(from, to) === b.slice(from, to));
  if (start > 0 && (a.charCodeAt(start - 1) & 0xfc00) === 0xd800) start -= 1;
  const [la, lb] = [a.length, b.length];
  let end = sameFor(n - start, (from, to) => a.slice(la - to, la - from) === b.slice(lb - to, lb - from));
  if (end > 0 && (a.charCodeAt(la - end) & 0xfc00) === 0xdc00) end -= 1;
  shared[0] = start;
  shared[1] = end;
}

/** The largest `k <= n` for which `same(0, k)`, given `same(i, j)` for any stretch. */
function sameFor(n, same) {
  let at = 0;
  let step = 16;
  while (at < n) {
    const to = Math.min(n, at + step);
    if (!same(at, to)) break;
    at = to;
    step *= 2;
  }
  if (at >= n) return n;
  // The first difference is in [at, at + step): narrow it down.
  let [lo, hi] = [at, Math.min(n, at + step) - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (same(at, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
