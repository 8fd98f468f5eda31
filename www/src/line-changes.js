// What one text changed against another, line by line: the lines removed
// and added, in order, by a longest common subsequence after the common
// start and end are set aside (the history panel's "Changes").

/** Above this many cells the middle is shown as removed then added, unmatched. */
const MAX_CELLS = 2_000_000;

/** `[{ change: "same" | "removed" | "added", line }]` from `before` to `after`. */
export function lineChanges(before, after) {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const am = a.slice(start, a.length - end);
  const bm = b.slice(start, b.length - end);
  const out = a.slice(0, start).map((line) => ({ change: "same", line }));
  const n = am.length;
  const m = bm.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    out.push(...am.map((line) => ({ change: "removed", line })), ...bm.map((line) => ({ change: "added", line })));
  } else {
    // table[i][j]: the length of a longest common subsequence of am[i..] and bm[j..].
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i][j] = am[i] === bm[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        out.push({ change: "same", line: am[i] });
        i++;
        j++;
      } else if (j >= m || (i < n && table[i + 1][j] >= table[i][j + 1])) {
        out.push({ change: "removed", line: am[i++] });
      } else {
        out.push({ change: "added", line: bm[j++] });
      }
    }
  }
  out.push(...a.slice(a.length - end).map((line) => ({ change: "same", line })));
  return out;
}
