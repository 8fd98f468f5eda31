// The MiniLM embedder's speed (part of `npm run bench`): loading the model,
// embedding a 12-word question, and embedding every item of a 25,000-character
// memory (benches/gen_doc.mjs) from scratch, natively (a release build of
// embedders/minilm/examples/bench.rs, f32 weights) and through the package in
// Node (its own .wasm with SIMD, the packaged f16 weights); then the same
// for the static table (memdoc/embedders/static) in Node.
//
//   node benches/minilm.mjs        after node scripts/build.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
export const QUESTION = "which relational database do the billing services run in production today?";
export const CHARS = 25_000;

/** The memory's items: each `- ` line with the indented lines under it (as examples/bench.rs). */
export function items(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("- ")) out.push(line);
    else if (line.startsWith("  ") && out.length) out[out.length - 1] += `\n${line}`;
  }
  return out;
}

export const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

const f = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** The table of an embedder's native and wasm figures, and their ratios. */
export function table(native, wasm, nativeName, wasmName) {
  const rows = [
    ["", nativeName, wasmName, "wasm/native"],
    ["load the model", f(native.loadMs), f(wasm.loadMs), (wasm.loadMs / native.loadMs).toFixed(2)],
    [
      `embed a 12-word question (${native.questionTokens} tokens)`,
      f(native.questionMs),
      f(wasm.questionMs),
      (wasm.questionMs / native.questionMs).toFixed(2),
    ],
    [
      `index ${CHARS.toLocaleString("en")} characters (${native.items} items, ${native.tokens} tokens)`,
      f(native.indexMs),
      f(wasm.indexMs),
      (wasm.indexMs / native.indexMs).toFixed(2),
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ")).join("\n");
}

export async function benchMiniLm() {
  const memory = genDoc(CHARS);
  const dir = mkdtempSync(join(tmpdir(), "memdoc-minilm-bench-"));
  const file = join(dir, "memory.md");
  writeFileSync(file, memory);
  let native;
  try {
    const out = execFileSync(
      "cargo",
      ["run", "--quiet", "--release", "-p", "memdoc-minilm", "--example", "bench", "--", QUESTION, file],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    native = JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const { miniLmEmbedder } = await import(pathToFileURL(join(root, "pkg", "embedders", "minilm.js")).href);
  let started = performance.now();
  const embedder = await miniLmEmbedder();
  const loadMs = performance.now() - started;
  const samples = [];
  for (let i = 0; i < 21; i++) {
    started = performance.now();
    await embedder.embed([QUESTION], "query");
    samples.push(performance.now() - started);
  }
  const all = items(memory);
  started = performance.now();
  await embedder.embed(all, "document");
  const indexMs = performance.now() - started;
  const wasm = { loadMs, questionMs: median(samples), items: all.length, indexMs };

  console.log(`\nMiniLM (all-MiniLM-L6-v2): one text at a time, one thread\n\n${table(native, wasm, "native (f32)", "wasm in Node (f16 file)")}\n`);

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
    `static table (all-MiniLM-L6-v2-static-256), wasm in Node: load ${f(stat.loadMs)}, ` +
      `a 12-word question ${stat.questionMs.toFixed(3)} ms, index ${CHARS.toLocaleString("en")} characters (${all.length} items) ${f(stat.indexMs)}\n`,
  );
  return { native, wasm, static: stat };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchMiniLm();
