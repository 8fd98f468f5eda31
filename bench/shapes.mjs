// The growth on the hostile shapes of bench/growth.mjs alone, at a size of
// your choice: `npm run bench` measures 1,000 against 16,000 lines; this
// measures LINES against 16 times LINES, through the package in pkg/ (or
// PKG_DIR), and prints one line per export and shape.
//
//   node bench/shapes.mjs [LINES] [PKG_DIR] [--only=OP/SHAPE,...]
//   node --max-semi-space-size=256 bench/shapes.mjs 16000
//
// LINES defaults to 16000; `--only=parse/entries,recall/fences` measures
// those pairs alone.
//
// The second form gives V8 a young generation large enough for the largest
// results, so that they are made and kept without being copied out of it
// and promoted on the way (BENCHMARKS.md, "The host's young generation").
// The last line is the host alone: plain JavaScript making four objects per
// line, timed the same way.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, growth, objects } from "./growth.mjs";

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const [size, pkg] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const only = flags.find((f) => f.startsWith("--only="))?.slice("--only=".length).split(",");
const unknown = flags.filter((f) => !f.startsWith("--only="));
if (unknown.length > 0) throw new Error(`unknown option ${unknown[0]}: the only option is --only=OP/SHAPE,...`);
const lines = Number(size ?? 16_000);
if (!Number.isSafeInteger(lines) || lines < 1) throw new Error(`LINES must be a positive integer, not ${size}`);
const dir = resolve(pkg ?? new URL("../pkg", import.meta.url).pathname);
const memdoc = await import(pathToFileURL(resolve(dir, "node.js")).href);
const start = Date.now();
const results = growth(memdoc, { n: lines, attempts: 3, only });
if (results.length === 0) throw new Error(`--only names no pair of an export and a shape: ${only}`);
for (const r of results) console.log(describe(r));
const over = results.filter((r) => r.ratio > 20);
console.log(
  `${lines.toLocaleString("en")} -> ${(16 * lines).toLocaleString("en")} lines: ${over.length} of ${results.length} above 20x, ` +
    `at most ${Math.max(...results.map((r) => r.ratio)).toFixed(1)}x (${((Date.now() - start) / 1000).toFixed(0)} s)`,
);
// What the host alone pays to make objects at these sizes.
console.log(describe(objects({ n: lines })));
