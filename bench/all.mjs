// `npm run bench`: time parse, render, validate, planSave, merge, compact and recall
// natively (a release build of bench/native.rs) and through the built npm
// package in Node, on the same generated documents (bench/gen_doc.mjs), and
// print both side by side: the median time of one call, the throughput, the
// wasm/native ratio, and how the time grows when the input is 16 times
// larger; then, through the package, that growth on the shapes of
// bench/growth.mjs for every export (the target: at most 20 times); and
// what the host alone costs a call that reads a whole text: the empty call
// and the text's encoding into WebAssembly's memory, against the native
// calls; hybridRecall with cached vectors (bench/hybrid.mjs); last, the
// MiniLM embedder (bench/minilm.mjs). See BENCHMARKS.md.
//
//   node bench/all.mjs              set up, build pkg/, then measure
//   node bench/all.mjs --no-build   measure the pkg/ that is there
//   node bench/all.mjs --json out.json   also write the raw figures
//
// Like scripts/start.mjs, this file imports only Node's own modules and the
// repository's until scripts/setup has run.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { genDoc } from "./gen_doc.mjs";
import { collect, describe, growth as growthOnShapes } from "./growth.mjs";
import { benchHybrid } from "./hybrid.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    json: { type: "string" },
    "budget-ms": { type: "string", default: "250" },
  },
});

/** The sizes of the tables, and the ones 16 times smaller or larger that the growth column needs. */
const SIZES = [1_000, 16_000, 25_000, 400_000, 625_000, 1_000_000, 10_000_000];
const SHOWN = [1_000, 25_000, 1_000_000, 10_000_000];
const GROWTH = [
  [1_000, 16_000],
  [25_000, 400_000],
  [625_000, 10_000_000],
];
const OPS = ["parse", "render", "validate", "planSave", "merge", "compact", "recall"];
// Recall: three words of the generated documents, within a tenth of the
// document (at least the default 4,000 code points).
const QUERY = "postgres migration latency";
const TODAY = "2026-12-01";

function run(command, argv, options = {}) {
  const result = spawnSync(command, argv, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`\`${[command, ...argv].join(" ")}\` failed with exit code ${result.status}`);
  return result;
}

/** The documents of one size and the options both sides use, written to target/bench/. */
function writeCase(dir, chars) {
  const text = genDoc(chars);
  // The stored document is the update without its last line: the save adds one.
  const cut = text.lastIndexOf("\n");
  const previous = cut < 0 ? "" : text.slice(0, cut);
  const ours = `${text}\n- ${TODAY}: added on one side`;
  const theirs = previous;
  const files = { text, previous, ours, theirs };
  const entry = {
    chars,
    bytes: Buffer.byteLength(text),
    // Large enough that every size is saved: the whole save path runs.
    soft: Math.max(18_000, 2 * chars),
    hard: Math.max(25_000, 2 * chars),
    target: Math.max(1, Math.floor(chars / 2)),
    today: TODAY,
    query: QUERY,
    budget: Math.max(4_000, Math.floor(chars / 10)),
  };
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, `${chars}-${name}.md`);
    writeFileSync(path, content);
    entry[name] = path;
  }
  return { entry, files };
}

/**
 * The median of timed batches of calls (each about 1 ms), about `budgetMs` in
 * all, at least 3, after calls for a fifth of that (at least one) to warm
 * up: V8 compiles a WebAssembly function, and the JavaScript that calls it,
 * with its optimizing tier only once it has run a while, and the first
 * calls of a process pay for that.
 */
function time(budgetMs, call) {
  let start = performance.now();
  let calls = 0;
  do {
    call();
    calls += 1;
  } while (performance.now() - start < budgetMs / 5);
  const once = (performance.now() - start) / calls;
  const batch = Math.min(10_000, Math.max(1, Math.ceil(1 / Math.max(once, 1e-6))));
  const samples = Math.min(100_000, Math.max(3, Math.floor(budgetMs / (once * batch))));
  const times = [];
  for (let s = 0; s < samples; s++) {
    start = performance.now();
    for (let i = 0; i < batch; i++) call();
    times.push(((performance.now() - start) * 1e6) / batch);
  }
  times.sort((a, b) => a - b);
  return { ns: times[Math.floor(samples / 2)], samples, batch };
}

function fmtTime(ns) {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}
const mibps = (bytes, ns) => (bytes / 1048576 / (ns / 1e9)).toFixed(1);
const label = (chars) =>
  chars >= 1e6 ? `${chars / 1e6}M` : chars >= 1e3 ? `${chars / 1e3}k` : String(chars);

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  return [line(rows[0]), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}

async function main() {
  if (!args["no-build"]) {
    run("bash", ["scripts/setup"]);
    run("node", ["scripts/build.mjs"]);
  }
  const budgetMs = Number(args["budget-ms"]);
  const dir = join(root, "target", "bench");
  mkdirSync(dir, { recursive: true });
  const cases = SIZES.map((chars) => writeCase(dir, chars));
  const casesPath = join(dir, "cases.json");
  writeFileSync(casesPath, JSON.stringify({ budgetMs, cases: cases.map((c) => c.entry) }));

  // Native first, alone on the CPU.
  run("cargo", ["build", "--quiet", "--profile", "bench", "--example", "native"]);
  const out = execFileSync("cargo", ["run", "--quiet", "--profile", "bench", "--example", "native", "--", casesPath], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const native = new Map(JSON.parse(out).results.map((r) => [`${r.op}@${r.chars}`, r]));

  // WebAssembly: the package as built in pkg/, in this process.
  const memdoc = await import(pathToFileURL(join(root, "pkg", "node.js")).href);
  const wasm = new Map();
  for (const { entry, files } of cases) {
    const validateOptions = {
      scope: "team",
      previous: files.previous,
      limits: { soft: entry.soft, hard: entry.hard },
    };
    const calls = {
      parse: () => memdoc.parse(files.text),
      render: () => memdoc.render(files.text),
      validate: () => memdoc.validate(files.text, validateOptions),
      planSave: () => memdoc.planSave(files.text, validateOptions),
      merge: () => memdoc.merge(files.text, files.ours, files.theirs),
      compact: () => memdoc.compact(files.text, { scope: "team", target: entry.target, today: entry.today }),
      recall: () => memdoc.recall(files.text, entry.query, { scope: "team", budget: entry.budget, today: entry.today }),
    };
    for (const op of OPS) {
      // A full collection first: no call pays for the garbage of another
      // operation (parse's result of 10 MB is millions of objects).
      collect();
      wasm.set(`${op}@${entry.chars}`, { chars: entry.chars, op, ...time(budgetMs, calls[op]) });
    }
  }

  // The host's own share of a call that reads a whole text, which no
  // change to the engine removes: the call itself (`render("")`), and the
  // text written into WebAssembly's memory by the host's fastest encoder,
  // into room for three bytes a unit, as the package's conversion does.
  const host = new Map();
  const encoder = new TextEncoder();
  for (const { entry, files } of SHOWN.map((chars) => cases.find((c) => c.entry.chars === chars))) {
    const room = new Uint8Array(files.text.length * 3);
    collect();
    host.set(entry.chars, {
      chars: entry.chars,
      empty: time(budgetMs, () => memdoc.render("")).ns,
      encode: time(budgetMs, () => encoder.encodeInto(files.text, room)).ns,
    });
  }

  const bytes = new Map(cases.map((c) => [c.entry.chars, c.entry.bytes]));
  const growth = (side, op, chars) => {
    const pair = GROWTH.find(([, big]) => big === chars) ?? GROWTH.find(([small]) => small === chars);
    if (!pair || !SHOWN.includes(chars)) return "";
    const [small, big] = pair;
    return `${(side.get(`${op}@${big}`).ns / side.get(`${op}@${small}`).ns).toFixed(1)}x (${label(small)}→${label(big)})`;
  };
  const cpu = cpus();
  console.log(
    `\nmemdoc bench, ${new Date().toISOString()}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "?"}\n` +
      `median time of one call; MiB/s of the input's UTF-8; wasm/native; growth = time(16x input) / time(x)\n`,
  );
  for (const op of OPS) {
    const rows = [["size", "bytes", "native", "MiB/s", "wasm (Node)", "MiB/s", "wasm/native", "growth native", "growth wasm"]];
    for (const chars of SHOWN) {
      const n = native.get(`${op}@${chars}`);
      const w = wasm.get(`${op}@${chars}`);
      const b = bytes.get(chars);
      rows.push([
        label(chars),
        b,
        fmtTime(n.ns),
        mibps(b, n.ns),
        fmtTime(w.ns),
        mibps(b, w.ns),
        `${(w.ns / n.ns).toFixed(2)}x`,
        growth(native, op, chars),
        growth(wasm, op, chars),
      ]);
    }
    console.log(`${op}\n\n${table(rows)}\n`);
  }
  const hostRows = [["size", "empty call", "encodeInto of the text", "both / native parse", "both / native render"]];
  for (const chars of SHOWN) {
    const { empty, encode } = host.get(chars);
    const ratio = (op) => `${((empty + encode) / native.get(`${op}@${chars}`).ns).toFixed(2)}x`;
    hostRows.push([label(chars), fmtTime(empty), fmtTime(encode), ratio("parse"), ratio("render")]);
  }
  console.log(
    `the host's share of a call that reads a whole text (render(""), and TextEncoder.encodeInto of the text), against native\n\n${table(hostRows)}\n`,
  );
  // Recall by meaning with the item vectors cached (bench/hybrid.mjs;
  // the target: at most 3 ms at 25,000 characters).
  const hybrid = await benchHybrid(memdoc, { chars: 25_000, budgetMs: budgetMs * 4 });
  console.log(
    `hybridRecall through the package, ${label(hybrid.chars)} (${hybrid.items} items), 384-dimension vectors cached (target at most 3 ms)\n\n` +
      `${table([["size", "hybridRecall", "recall (words)"], [label(hybrid.chars), `${hybrid.hybrid.ms.toFixed(2)} ms`, `${hybrid.lexical.ms.toFixed(2)} ms`]])}\n`,
  );
  // The growth on hostile shapes, through the package: a pair above the
  // target is timed again up to 8 times, and the best ratio is shown.
  const shapes = growthOnShapes(memdoc);
  const over = shapes.filter((r) => r.ratio > 20);
  console.log(
    `growth on hostile shapes (wasm, 1,000 -> 16,000 lines; target at most 20x), CPU time, best of 5\n\n` +
      `${table([["operation/shape", "1,000 lines", "16,000 lines", "growth"], ...shapes.map((r) => [r.what, `${r.small.toFixed(2)} ms`, `${r.large.toFixed(1)} ms`, `${r.ratio.toFixed(1)}x`])])}\n\n` +
      (over.length ? `above 20x: ${over.map(describe).join("; ")}\n` : "every operation within 20x\n"),
  );
  // The MiniLM embedder: a question, and a 25,000-character memory indexed
  // from scratch, natively and through the package (bench/minilm.mjs).
  const { benchMiniLm } = await import("./minilm.mjs");
  const minilm = await benchMiniLm();
  // multilingual-e5-small beside it, the same question and memory (bench/e5.mjs).
  const { benchE5 } = await import("./e5.mjs");
  const e5 = await benchE5();
  if (args.json) {
    writeFileSync(
      args.json,
      `${JSON.stringify({ node: process.version, cpus: cpu.length, bytes: Object.fromEntries(bytes), native: [...native.values()], wasm: [...wasm.values()], host: [...host.values()], growth: shapes, minilm, e5 }, null, 1)}\n`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
