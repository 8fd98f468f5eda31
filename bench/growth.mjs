// How the cost of every export grows with its input, on the shapes that
// stress a parser and a merge (one long section, many sections, fences,
// repeated titles, one long line): for each shape and operation, the time of
// a 16,000-line input over the time of a 1,000-line one. `npm run bench`
// prints the ratios (the target is at most 20); test-js/hostile.test.mjs
// uses the same measurement only to catch a cost that grows with the square
// of the input.
//
// A string result over 128 KB costs V8 fresh pages from the kernel (its
// large-object space), which a smaller one does not: a step at that size,
// linear beyond it. So where a result repeats the memory it was given,
// the package hands back a slice of the input string instead of a copy
// (bindings/wasm/src/wasm/text/), and the step stays in only the results that are new
// text (merge, compact, a parsed line, a canonical form that differs from
// the input): decoding 120,000 bytes into a string
// took 9 µs of user and 0.1 µs of system time here, 140,000 bytes 22 µs and
// 129 µs, 400,000 bytes 26 µs and 383 µs.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A full collection before each timing, so that no run pays for the garbage
// of the one before it.
setFlagsFromString("--expose-gc");
export const collect = runInNewContext("gc");

/** The inputs, by shape, of `n` lines. */
export const shapes = {
  entries: (n) => "## Log\n" + Array.from({ length: n }, (_, i) => `- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: entry ${i}`).join("\n"),
  headings: (n) => Array.from({ length: n }, (_, i) => `## H${i}\n- 2025-01-01: e${i}`).join("\n"),
  fences: (n) => "## Code\n" + Array.from({ length: n }, (_, i) => (i % 3 === 0 ? "```" : `line ${i}`)).join("\n"),
  duplicates: (n) => Array.from({ length: n }, (_, i) => `## Same\n- 2025-01-01: e${i % 7}`).join("\n"),
  oneLine: (n) => "## A\n" + "word ".repeat(n * 4),
};

/**
 * A call of one text whose other arguments are made from it (`make`) once
 * per text, not in every call: the time is the export's, not that of
 * building its inputs (a new string over 128 KB costs fresh pages from the
 * kernel, see above, which a 1,000-line input's does not).
 */
function sides(make, call) {
  let last;
  let made;
  return (text) => {
    if (text !== last) [last, made] = [text, make(text)];
    return call(text, made);
  };
}

/**
 * The arguments each export that takes a whole document is given after the
 * text, made from it: what `operations` calls the package with, and what
 * `bench/steps.mjs --native` hands bench/steps.rs, which reads them as
 * the package does. Merge's ours adds an entry at the text's end, theirs a
 * section at its start.
 */
export const argumentsOf = {
  parse: () => [],
  render: () => [],
  validate: () => [{ scope: "team" }],
  planSave: (text) => [{ previous: text }],
  merge: (text) => [`${text}\n- 2025-02-01: ours`, `## New\n- 2025-02-02: theirs\n\n${text}`],
  compact: (text) => [{ scope: "team", target: Math.floor(text.length / 3) }],
  injectionBlock: () => [],
  recall: (text) => ["entry line e1 word", { scope: "team", budget: Math.floor(text.length / 4) }],
  expire: () => [{ today: "2025-06-01", policies: ["Log", "H1", "Code", "Same", "A"].map((section) => ({ section, maxAgeDays: 30 })) }],
};

/** The package's exports that take a whole document, as calls of one text. */
export function operations(memdoc) {
  return Object.fromEntries(
    Object.entries(argumentsOf).map(([op, make]) => [op, sides(make, (text, args) => memdoc[op](text, ...args))]),
  );
}

/**
 * The best of five timings of `fn`: `{ cpu, system }` milliseconds, user and
 * system CPU time together, and the system part. CPU rather than wall time:
 * the machine may be shared, and wall time would charge a long run for the
 * time other processes had the CPU, which a short run often escapes
 * entirely.
 */
export function time(fn) {
  let best = { cpu: Infinity, system: Infinity };
  for (let i = 0; i < 5; i += 1) {
    collect();
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    const cpu = (used.user + used.system) / 1000;
    if (cpu < best.cpu) best = { cpu, system: used.system / 1000 };
  }
  return best;
}

/** `fn` called `times` times. */
const repeat = (fn, times) => () => {
  for (let i = 0; i < times; i += 1) fn();
};

/**
 * `{ what, ratio, small, large, system }` for every shape and operation,
 * 1,000 against 16,000 lines: `small` and `large` are the CPU milliseconds
 * of one call, `ratio` theirs, `system` the system part of each (the
 * kernel's share is counted by clock ticks, so it is only a hint). Other
 * processes only ever make a timing longer, so a pair is timed again, up to
 * `attempts` times, while its ratio is above `bound`; a cost that really
 * grows faster stays above it on every attempt. `only`, when given, names
 * the pairs to measure (`["parse/entries"]`).
 */
export function growth(memdoc, { n = 1000, bound = 20, attempts = 8, only } = {}) {
  const results = [];
  const wanted = (op, shape) => !only || only.includes(`${op}/${shape}`);
  for (const [shape, make] of Object.entries(shapes)) {
    if (!Object.keys(operations(memdoc)).some((op) => wanted(op, shape))) continue;
    const small = make(n);
    const large = make(16 * n);
    for (const [op, fn] of Object.entries(operations(memdoc))) {
      if (!wanted(op, shape)) continue;
      // A call of the large input that takes less than 5 ms is repeated
      // until a timing lasts about that long; the small input is called 16
      // times as often, so that both timings take about as long and meet the
      // same contention.
      const probe = time(() => fn(large));
      const times = Math.max(1, Math.ceil(5 / Math.max(probe.cpu, 0.05)));
      let best = { what: `${op}/${shape}`, ratio: Infinity };
      for (let attempt = 0; attempt < attempts && !(best.ratio <= bound); attempt += 1) {
        const a = time(repeat(() => fn(small), 16 * times));
        const b = time(repeat(() => fn(large), times));
        const perCall = (t, calls) => ({ cpu: Math.max(t.cpu, 0.05) / calls, system: t.system / calls });
        const [s, l] = [perCall(a, 16 * times), perCall(b, times)];
        if (l.cpu / s.cpu < best.ratio) {
          best = { what: `${op}/${shape}`, ratio: l.cpu / s.cpu, small: s.cpu, large: l.cpu, system: { small: s.system, large: l.system } };
        }
      }
      results.push(best);
    }
  }
  return results;
}

/**
 * The same measurement of plain JavaScript making what a parsed line is
 * made of (an object with a range of two positions: four objects) for `n`
 * and `16 * n` lines, and nothing else: how the host's own cost of making
 * a result grows over those sizes, whatever makes it.
 */
export function objects({ n = 1000 } = {}) {
  const make = (lines) => () => {
    const out = [];
    for (let i = 0; i < lines; i += 1) {
      out.push({ kind: "entry", text: "x", range: { start: { line: i, column: 0, offset: i }, end: { line: i, column: 5, offset: i + 5 } } });
    }
    return out;
  };
  const small = make(n);
  const large = make(16 * n);
  const times = Math.max(1, Math.ceil(5 / Math.max(time(large).cpu, 0.05)));
  let best = { what: "objects/plain JavaScript", ratio: Infinity };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const s = time(repeat(small, 16 * times));
    const l = time(repeat(large, times));
    const ratio = (l.cpu / times) / (s.cpu / (16 * times));
    if (ratio < best.ratio) {
      best = { ...best, ratio, small: s.cpu / (16 * times), large: l.cpu / times, system: { small: s.system / (16 * times), large: l.system / times } };
    }
  }
  return best;
}

/** One result as `what: ratio (small -> large; of which system ...)`. */
export const describe = ({ what, ratio, small, large, system }) =>
  `${what}: ${ratio.toFixed(1)}x (${ms(small)} -> ${ms(large)}; of which system ${ms(system.small)} -> ${ms(system.large)})`;

/** Milliseconds, to three significant digits or the microsecond. */
const ms = (x) => `${x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3)} ms`;
