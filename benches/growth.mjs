// How the cost of every export grows with its input, on the shapes that
// stress a parser and a merge (one long section, many sections, fences,
// repeated titles, one long line): for each shape and operation, the time of
// a 16,000-line input over the time of a 1,000-line one. `npm run bench`
// prints the ratios (the target is at most 20); test-js/hostile.test.mjs
// uses the same measurement only to catch a cost that grows with the square
// of the input.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A full collection before each timing, so that no run pays for the garbage
// of the one before it.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc");

/** The inputs, by shape, of `n` lines. */
export const shapes = {
  entries: (n) => "## Log\n" + Array.from({ length: n }, (_, i) => `- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: entry ${i}`).join("\n"),
  headings: (n) => Array.from({ length: n }, (_, i) => `## H${i}\n- 2025-01-01: e${i}`).join("\n"),
  fences: (n) => "## Code\n" + Array.from({ length: n }, (_, i) => (i % 3 === 0 ? "```" : `line ${i}`)).join("\n"),
  duplicates: (n) => Array.from({ length: n }, (_, i) => `## Same\n- 2025-01-01: e${i % 7}`).join("\n"),
  oneLine: (n) => "## A\n" + "word ".repeat(n * 4),
};

/** The package's exports that take a whole document, as calls of one text. */
export function operations(memdoc) {
  return {
    parse: (text) => memdoc.parse(text),
    render: (text) => memdoc.render(text),
    validate: (text) => memdoc.validate(text, { scope: "team" }),
    planSave: (text) => memdoc.planSave(text, { previous: text }),
    merge: (text) => memdoc.merge(text, `${text}\n- 2025-02-01: ours`, `## New\n- 2025-02-02: theirs\n\n${text}`),
    compact: (text) => memdoc.compact(text, { scope: "team", target: Math.floor(text.length / 3) }),
    injectionBlock: (text) => memdoc.injectionBlock(text),
    recall: (text) => memdoc.recall(text, "entry line e1 word", { scope: "team", budget: Math.floor(text.length / 4) }),
    expire: (text) =>
      memdoc.expire(text, { today: "2025-06-01", policies: ["Log", "H1", "Code", "Same", "A"].map((section) => ({ section, maxAgeDays: 30 })) }),
  };
}

/**
 * The best of five CPU times of `fn` (user + system, in milliseconds): the
 * machine may be shared, and wall time would charge a long run for the time
 * other processes had the CPU, which a short run often escapes entirely.
 */
function time(fn) {
  let best = Infinity;
  for (let i = 0; i < 5; i += 1) {
    collect();
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.max(best, 0.05);
}

/**
 * `{ what, ratio, small, large }` (milliseconds) for every shape and
 * operation, 1,000 against 16,000 lines. Other processes only ever make a
 * timing longer, so a pair is timed again, up to `attempts` times, while its
 * ratio is above `bound`; a cost that really grows faster stays above it on
 * every attempt.
 */
export function growth(memdoc, { n = 1000, bound = 20, attempts = 8 } = {}) {
  const results = [];
  for (const [shape, make] of Object.entries(shapes)) {
    const small = make(n);
    const large = make(16 * n);
    for (const [op, fn] of Object.entries(operations(memdoc))) {
      let best = { what: `${op}/${shape}`, ratio: Infinity };
      for (let attempt = 0; attempt < attempts && !(best.ratio <= bound); attempt += 1) {
        // The small input is timed 16 times in a row, so that both timings
        // take about as long and meet the same contention.
        const a = time(() => {
          for (let i = 0; i < 16; i += 1) fn(small);
        }) / 16;
        const b = time(() => fn(large));
        if (b / a < best.ratio) best = { what: `${op}/${shape}`, ratio: b / a, small: a, large: b };
      }
      results.push(best);
    }
  }
  return results;
}

/** One result as `what: ratio (small -> large ms)`. */
export const describe = ({ what, ratio, small, large }) =>
  `${what}: ${ratio.toFixed(1)}x (${small.toFixed(1)} -> ${large.toFixed(1)} ms)`;
