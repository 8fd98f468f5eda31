// Where a growth above the target comes from: the cost per line of an export
// on a hostile shape of bench/growth.mjs at sizes four times apart, through
// the package in pkg/ (or PKG_DIR). A cost that grows faster than its input
// grows at every step; a step in the host (V8's young generation, fresh pages
// from the kernel) raises the cost per line once, at one size, and the
// steps after it are linear again.
//
//   node bench/steps.mjs OP/SHAPE[,OP/SHAPE...] [FROM] [STEPS] [PKG_DIR]
//   node bench/steps.mjs --native OP/SHAPE[,OP/SHAPE...] [FROM] [STEPS]
//
// FROM defaults to 1000 lines, STEPS to 4 (1,000 to 256,000 lines). Each
// figure is CPU time, the best of five after a full collection, a call
// repeated until a timing lasts about 5 ms, as in `npm run bench`.
//
// `--native` times the same calls natively instead (bench/steps.rs, a
// release build, given the same arguments),
// wall time, the best of five, with the minor page faults of those five
// calls: where the C library's allocator gives memory back to the kernel
// after a call, the next call pays for fresh pages.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { argumentsOf, operations, shapes, time } from "./growth.mjs";

const native = process.argv.includes("--native");
const [pairs, from, steps, pkg] = process.argv.slice(2).filter((a) => a !== "--native");
const wanted = (pairs ?? "").split(",").filter(Boolean);
const first = Number(from ?? 1000);
const count = Number(steps ?? 4);
if (wanted.length === 0) throw new Error("name the pairs to measure: OP/SHAPE[,OP/SHAPE...], for example parse/entries");
if (!Number.isSafeInteger(first) || first < 1) throw new Error(`FROM must be a positive integer, not ${from}`);
if (!Number.isSafeInteger(count) || count < 1) throw new Error(`STEPS must be a positive integer, not ${steps}`);
const root = new URL("..", import.meta.url).pathname;
const memdoc = native ? null : await import(pathToFileURL(resolve(pkg ?? `${root}pkg`, "node.js")).href);
const calls = native ? argumentsOf : operations(memdoc);
for (const pair of wanted) {
  const [op, shape] = pair.split("/");
  if (!calls[op] || !shapes[shape]) {
    throw new Error(`no pair ${pair}: the exports are ${Object.keys(calls).join(", ")}, the shapes ${Object.keys(shapes).join(", ")}`);
  }
}
const sizes = Array.from({ length: count + 1 }, (_, k) => first * 4 ** k);

const ms = (x) => `${x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3)} ms`;
/** `op` on `shape` at every size, in the package: `{ lines, ms }`. */
function inPackage(op, shape) {
  const fn = calls[op];
  // Called for about 50 ms first, so that V8 runs it optimized.
  const warm = shapes[shape](first);
  for (const start = Date.now(); Date.now() - start < 50; ) fn(warm);
  return sizes.map((lines) => {
    const text = shapes[shape](lines);
    const probe = time(() => fn(text));
    const times = Math.max(1, Math.ceil(5 / Math.max(probe.cpu, 0.05)));
    const t = time(() => {
      for (let i = 0; i < times; i += 1) fn(text);
    });
    return { lines, ms: t.cpu / times };
  });
}

/** `op` on `shape` at every size, natively: `{ lines, ms, faults }`. */
function natively(op, shape) {
  const dir = `${root}target/bench/steps`;
  mkdirSync(dir, { recursive: true });
  const files = sizes.map((lines) => {
    const file = `${dir}/${shape}-${lines}.md`;
    const text = shapes[shape](lines);
    writeFileSync(file, text);
    writeFileSync(`${file}.${op}.json`, JSON.stringify(argumentsOf[op](text)));
    return file;
  });
  const out = execFileSync("cargo", ["run", "--quiet", "-p", "memdoc-wasm", "--profile", "bench", "--example", "steps", "--", op, ...files], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out
    .trim()
    .split("\n")
    .map((line, k) => ({ lines: sizes[k], ...JSON.parse(line) }));
}

for (const pair of wanted) {
  const [op, shape] = pair.split("/");
  const row = native ? natively(op, shape) : inPackage(op, shape);
  const cells = row.map(({ lines, ms: t, faults }, k) => {
    const step = k === 0 ? "" : `, ${(t / row[k - 1].ms).toFixed(1)}x`;
    const paged = faults === undefined ? "" : `, ${faults.toLocaleString("en")} faults`;
    return `${lines.toLocaleString("en")} ${ms(t)} (${((1000 * t) / lines).toFixed(3)} µs/line${step}${paged})`;
  });
  console.log(`${native ? "native " : ""}${pair}: ${cells.join("; ")}`);
}
