// The multilingual-e5-small embedder's speed (part of `npm run bench`),
// beside MiniLM's (bench/minilm.mjs: the same question and the same
// 25,000-character memory): loading the model file, embedding the
// question, and embedding every item from scratch (their pieces packed into
// forward passes of about 128 together, as MiniLM's), natively (a release
// build of bench/e5.rs) and through the package in Node
// (its own .wasm with SIMD), in CPU time.
//
//   node bench/e5.mjs        after node scripts/build.mjs and bash scripts/setup
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";
import { CHARS, QUESTION, cpuMs, items, median } from "./minilm.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const MODEL = join(root, "target", "models", "multilingual-e5-small", "e5-small-q4.bin");

export async function benchE5() {
  const all = items(genDoc(CHARS));
  const dir = mkdtempSync(join(tmpdir(), "memdoc-e5-bench-"));
  const file = join(dir, "items.txt");
  writeFileSync(file, all.map((i) => i.replaceAll("\n", "\\n")).join("\n"));
  let native;
  try {
    const out = execFileSync("cargo", ["run", "--quiet", "--release", "-p", "memdoc-e5", "--example", "e5", "--", QUESTION, file], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    native = JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const { e5Embedder } = await import(pathToFileURL(join(root, "pkg", "embedders", "e5.js")).href);
  let started = cpuMs();
  const embedder = await e5Embedder({ model: pathToFileURL(MODEL) });
  const loadMs = cpuMs() - started;
  const samples = [];
  for (let i = 0; i < 21; i++) {
    started = cpuMs();
    await embedder.embed([QUESTION], "query");
    samples.push(cpuMs() - started);
  }
  started = cpuMs();
  await embedder.embed(all, "document");
  const wasm = { loadMs, questionMs: median(samples), items: all.length, indexMs: cpuMs() - started };
  const f = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
  console.log(
    `\nmultilingual-e5-small (4-bit weights run in f32), the items packed into passes, one thread, CPU time: ` +
      `load ${f(native.loadMs)} native, ${f(wasm.loadMs)} wasm; a 12-word question (${native.questionTokens} tokens, median of 21) ` +
      `${f(native.questionMs)} native, ${f(wasm.questionMs)} wasm; index ${CHARS.toLocaleString("en")} characters ` +
      `(${native.items} items, ${native.tokens} tokens) ${f(native.indexMs)} native, ${f(wasm.indexMs)} wasm (wasm/native ${(wasm.indexMs / native.indexMs).toFixed(2)})\n`,
  );
  return { native, wasm };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchE5();
