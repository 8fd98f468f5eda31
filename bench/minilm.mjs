// The MiniLM embedder's speed (part of `npm run bench`, and alone with
// `npm run bench:minilm`): loading the model, embedding a 12-word question,
// and embedding every item of a 25,000-character memory
// (bench/gen_doc.mjs) from scratch, in the same run and on the same
// texts: natively (a release build of bench/minilm.rs,
// f32 weights, one thread), in ONNX Runtime from PyPI (one thread, the same
// f32 weights and token ids: bench/onnx/minilm_onnx.py, in a virtualenv
// of its own under target/ that this script installs on first use), and
// through the package in Node (its own .wasm with SIMD, the packaged f16
// weights); then the ratios, and the native indexing on every core. Then
// the static table (memdoc/embedders/static) in Node.
//
//   node bench/minilm.mjs        after node scripts/build.mjs
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
export const QUESTION = "which relational database do the billing services run in production today?";
export const CHARS = 25_000;
const venv = join(root, "target", "bench-onnx-venv");
const requirements = join(root, "bench", "onnx", "requirements.txt");

/** The virtualenv of the reference runtime (bench/onnx/requirements.txt), installed once from PyPI. */
function onnxPython() {
  const python = join(venv, "bin", "python");
  const stamp = join(venv, ".installed");
  if (!existsSync(stamp) || statSync(requirements).mtimeMs > statSync(stamp).mtimeMs) {
    console.log(`installing the reference runtime into ${venv} (pip, ${readFileSync(requirements, "utf8").trim().split("\n").join(", ")})`);
    rmSync(venv, { recursive: true, force: true });
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
    execFileSync(join(venv, "bin", "pip"), ["install", "-q", "--disable-pip-version-check", "-r", requirements], { stdio: "inherit" });
    writeFileSync(stamp, "");
  }
  return python;
}

/** Milliseconds of CPU time this process has had (the machine may be shared; Node's own threads add a little). */
export const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** The memory's items: each `- ` line with the indented lines under it (as bench/native.rs). */
export function items(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("- ")) out.push(line);
    else if (line.startsWith("  ") && out.length) out[out.length - 1] += `\n${line}`;
  }
  return out;
}

export const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

export async function benchMiniLm() {
  const memory = genDoc(CHARS);
  const dir = mkdtempSync(join(tmpdir(), "memdoc-minilm-bench-"));
  const file = join(dir, "memory.md");
  writeFileSync(file, memory);
  const load = loadavg()[0];
  let native;
  let onnx;
  try {
    const out = execFileSync(
      "cargo",
      ["run", "--quiet", "--release", "-p", "memdoc-minilm", "--example", "minilm", "--", QUESTION, file],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
    );
    native = JSON.parse(out);
    const ids = join(dir, "ids.json");
    writeFileSync(ids, JSON.stringify(native.ids));
    onnx = JSON.parse(
      execFileSync(onnxPython(), [join(root, "bench", "onnx", "minilm_onnx.py"), join(root, "target", "models", "all-MiniLM-L6-v2"), ids], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, OMP_NUM_THREADS: "1" },
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const { miniLmEmbedder } = await import(pathToFileURL(join(root, "pkg", "embedders", "minilm.js")).href);
  let started = cpuMs();
  const embedder = await miniLmEmbedder();
  const loadMs = cpuMs() - started;
  const samples = [];
  let questionVector;
  for (let i = 0; i < 21; i++) {
    started = cpuMs();
    [questionVector] = await embedder.embed([QUESTION], "query");
    samples.push(cpuMs() - started);
  }
  const all = items(memory);
  const runs = [];
  for (let i = 0; i < 3; i++) {
    started = cpuMs();
    await embedder.embed(all, "document");
    runs.push(cpuMs() - started);
  }
  const wasm = { loadMs, questionMs: median(samples), items: all.length, indexMs: Math.min(...runs) };
  const loadAfter = loadavg()[0];

  const f = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
  const x = (a, b) => `${(a / b).toFixed(2)}x`;
  const rows = [
    ["", "memdoc native", `${onnx.runtime}`, "memdoc wasm (Node)", "native/ORT", "wasm/native"],
    ["load the model", f(native.loadMs), f(onnx.loadMs), f(wasm.loadMs), "", ""],
    [
      `embed a 12-word question (${native.questionTokens} tokens; median of 21)`,
      f(native.questionMs),
      f(onnx.questionMs),
      f(wasm.questionMs),
      x(native.questionMs, onnx.questionMs),
      x(wasm.questionMs, native.questionMs),
    ],
    [
      `index ${CHARS.toLocaleString("en")} characters (${native.items} items, ${native.tokens} tokens; best of 3)`,
      f(native.indexMs),
      f(onnx.indexMs),
      f(wasm.indexMs),
      x(native.indexMs, onnx.indexMs),
      x(wasm.indexMs, native.indexMs),
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const table = rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ")).join("\n");
  console.log(
    `\nMiniLM (all-MiniLM-L6-v2), one thread each, CPU time, ${cpus()[0].model}, load average ${load.toFixed(2)} before, ${loadAfter.toFixed(2)} after\n` +
      `(ONNX Runtime: f32, the same token ids, the items sorted by length in padded batches of 32; memdoc native: f32, ` +
      `the items' tokens packed into passes of about 128; wasm: the packaged f16 weights)\n\n${table}\n\n` +
      `the question's vector, cosine to ONNX Runtime's: native ${cosine(native.questionVector, onnx.questionVector).toFixed(7)}, ` +
      `wasm (f16) ${cosine(questionVector, onnx.questionVector).toFixed(7)}\n` +
      `memdoc native on ${native.threads} threads (embed_parallel), wall-clock: index ${f(native.indexThreadsMs)}\n`,
  );
  delete native.ids;
  delete native.questionVector;
  delete onnx.questionVector;

  // The static table (memdoc/embedders/static), through the package in Node.
  const { staticEmbedder } = await import(pathToFileURL(join(root, "pkg", "embedders", "static.js")).href);
  started = performance.now();
  const light = await staticEmbedder();
  const staticLoadMs = performance.now() - started;
  const staticSamples = [];
  for (let i = 0; i < 201; i++) {
    started = performance.now();
    await light.embed([QUESTION], "query");
    staticSamples.push(performance.now() - started);
  }
  started = performance.now();
  await light.embed(all, "document");
  const stat = { loadMs: staticLoadMs, questionMs: median(staticSamples), indexMs: performance.now() - started };
  console.log(
    `static table (all-MiniLM-L6-v2-static-256-v2), wasm in Node: load ${f(stat.loadMs)}, ` +
      `a 12-word question ${stat.questionMs.toFixed(3)} ms, index ${CHARS.toLocaleString("en")} characters (${all.length} items) ${f(stat.indexMs)}\n`,
  );
  return { native, onnx, wasm, static: stat, loadAverage: [load, loadAfter] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchMiniLm();
