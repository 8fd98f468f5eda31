// The host's own share of a large result: what `parse` returns for the
// shape `entries` of bench/growth.mjs, made by plain JavaScript from the
// same positions (the objects src/wasm/literal.js makes from Rust's
// numbers: an object of five fields, a range of two positions, the date
// and the text sliced from the input; checked equal to `parse`'s), against
// `parse` itself through the package in pkg/ (or PKG_DIR). Each figure is
// one call, after a full collection, the best of five; then the growth over
// each pair of sizes 16 times apart. Each is timed again followed by a
// minor collection while its result is held: a result that fits in V8's
// young generation leaves the copying of its objects to a later
// collection, which a larger one pays during the call.
//
//   node bench/host.mjs [LINES,...] [PKG_DIR]
//
// LINES defaults to 1000,6250,16000,100000,256000.
import { deepStrictEqual } from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { collect, shapes, time } from "./growth.mjs";

const [sizes, pkg] = process.argv.slice(2);
const lines = (sizes ?? "1000,6250,16000,100000,256000").split(",").map(Number);
if (!lines.every((n) => Number.isSafeInteger(n) && n > 0)) throw new Error(`LINES must be positive integers, not ${sizes}`);
const memdoc = await import(pathToFileURL(resolve(pkg ?? new URL("../pkg", import.meta.url).pathname, "node.js")).href);

/** `parse`'s lines for `input`, one section of entries, made in JavaScript from their positions. */
function plain(input) {
  // The positions, found before the timing (Rust finds them in `parse`).
  const starts = [];
  for (let at = input.indexOf("\n"); at >= 0; at = input.indexOf("\n", at + 1)) starts.push(at + 1);
  const ends = [...starts.slice(1).map((start) => start - 1), input.length];
  return () => {
    const out = [];
    for (let i = 0; i < starts.length; i += 1) {
      const [start, end] = [starts[i], ends[i]];
      out.push({
        kind: "entry",
        date: input.slice(start + 2, start + 12),
        text: input.slice(start + 14, end),
        legacyMarker: null,
        range: { start: { line: i + 2, column: 1, offset: start }, end: { line: i + 2, column: end - start + 1, offset: end } },
      });
    }
    return out;
  };
}

// Both made often enough first that V8 runs them optimized.
const warm = shapes.entries(1000);
const warmPlain = plain(warm);
for (let i = 0; i < 50; i += 1) {
  warmPlain();
  memdoc.parse(warm);
}

/** `fn`, its result held through a minor collection. */
const thenMinor = (fn) => () => {
  const result = fn();
  collect({ type: "minor" });
  return result;
};

const columns = ["plain", "parse", "plain, minor", "parse, minor"];
const rows = [];
for (const n of lines) {
  const input = shapes.entries(n);
  const made = plain(input);
  const parsed = () => memdoc.parse(input);
  deepStrictEqual(made(), parsed().sections[0].lines);
  rows.push({ n, times: [made, parsed, thenMinor(made), thenMinor(parsed)].map((fn) => time(fn).cpu) });
}
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
console.log(`lines | ${columns.join(" | ")}`);
for (const r of rows) console.log(`${r.n} | ${r.times.map(ms).join(" | ")}`);
for (const small of rows) {
  const large = rows.find((r) => r.n === 16 * small.n);
  if (large) {
    const growth = columns.map((c, i) => `${c} ${(large.times[i] / small.times[i]).toFixed(1)}x`);
    console.log(`${small.n} -> ${large.n} lines: ${growth.join(", ")}`);
  }
}
