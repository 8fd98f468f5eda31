// memdoc/embedders/minilm through the built package, in Node: its own
// WebAssembly module with the packaged f16 weights, and with the f32 weights
// bash scripts/setup fetched, against the vectors computed independently
// (numpy float64 and Hugging Face tokenizers; scripts/minilm-reference.py).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";

import { miniLmEmbedder } from "memdoc/embedders/minilm";

import { minilmDir, pkgDir, root } from "./helpers.mjs";

const reference = JSON.parse(readFileSync(join(root, "embedders", "minilm", "tests", "reference.json"), "utf8"));
const model = join(root, "target", "models", "all-MiniLM-L6-v2");

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const cosine = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
const maxDiff = (a, b) => a.reduce((max, x, i) => Math.max(max, Math.abs(x - b[i])), 0);

/** The worst cosine and largest difference of the embedder's vectors against the reference. */
async function compare(embedder, label) {
  const texts = reference.cases.map((c) => c.text);
  const vectors = await embedder.embed(texts, "document");
  assert.equal(vectors.length, texts.length);
  let worst = 1;
  let largest = 0;
  reference.cases.forEach((c, i) => {
    assert.ok(vectors[i] instanceof Float32Array);
    assert.equal(vectors[i].length, 384);
    worst = Math.min(worst, cosine(vectors[i], c.vector));
    largest = Math.max(largest, maxDiff(vectors[i], c.vector));
  });
  console.log(`${label}: worst cosine ${worst.toFixed(7)}, largest |diff| ${largest.toExponential(2)} over ${texts.length} texts`);
  return { worst, largest };
}

test("the packaged embedder: id, dimensions, loaded once, within 0.99 cosine of the reference", { timeout: 300_000 }, async () => {
  const embedder = await miniLmEmbedder();
  assert.equal(embedder.id, "all-MiniLM-L6-v2");
  assert.equal(embedder.dimensions, 384);
  assert.equal(await miniLmEmbedder(), embedder, "every call without options shares one model");
  const { worst } = await compare(embedder, "packaged f16 (wasm)");
  assert.ok(worst >= 0.99, `worst cosine ${worst}`);
  // The weights travel in a package of their own (@memdoc/minilm), never
  // inside the .wasm or memdoc's package.
  const dir = join(pkgDir, "embedders", "minilm");
  assert.ok(statSync(join(dir, "minilm_bg.wasm")).size < 1_000_000);
  assert.ok(!existsSync(join(dir, "model.fp16.safetensors")));
  assert.ok(statSync(join(minilmDir, "model.fp16.safetensors")).size > 40_000_000);
  for (const notice of [join(dir, "NOTICE"), join(minilmDir, "NOTICE")]) {
    assert.match(readFileSync(notice, "utf8"), /Apache License, Version 2\.0/);
  }
});

test("the f32 weights give the reference's vectors within float error", { timeout: 300_000 }, async () => {
  const embedder = await miniLmEmbedder({
    weights: pathToFileURL(join(model, "model.safetensors")),
    tokenizer: readFileSync(join(model, "tokenizer.json")),
  });
  assert.notEqual(embedder, await miniLmEmbedder());
  const { worst, largest } = await compare(embedder, "f32 (wasm)");
  assert.ok(worst >= 0.9999, `worst cosine ${worst}`);
  assert.ok(largest <= 1e-4, `largest difference ${largest}`);
});

test("a question is closest to what answers it, in other words", async () => {
  const embedder = await miniLmEmbedder();
  const [database, sync] = await embedder.embed(["which relational database do we run?", "when is the recurring team sync?"], "query");
  const [postgres, releases, standup] = await embedder.embed(
    [
      "Services use PostgreSQL 16",
      "Production releases only ship on Tuesdays and Thursdays",
      "Our standup is at 10am daily in the #team channel.",
    ],
    "document",
  );
  assert.ok(dot(database, postgres) > dot(database, releases) + 0.1);
  assert.ok(dot(database, postgres) > dot(database, standup) + 0.1);
  assert.ok(dot(sync, standup) > dot(sync, postgres) + 0.1);
  assert.ok(Math.abs(dot(database, database) - 1) < 1e-5, "unit length");
  assert.deepEqual(await embedder.embed([], "query"), []);
});

test("bad input and bad files are coded errors", async () => {
  const embedder = await miniLmEmbedder();
  for (const [texts, kind] of [["one text", "query"], [[1], "query"], [["x"], "passage"], [undefined, "document"]]) {
    await assert.rejects(embedder.embed(texts, kind), { code: "embedder/input" });
  }
  const tokenizer = readFileSync(join(model, "tokenizer.json"));
  await assert.rejects(miniLmEmbedder({ weights: new Uint8Array([1, 2, 3]), tokenizer }), { code: "embedder/weights" });
  await assert.rejects(miniLmEmbedder({ weights: new Uint8Array(8), tokenizer: new TextEncoder().encode("{}") }), {
    code: "embedder/tokenizer",
  });
  await assert.rejects(miniLmEmbedder({ weights: "model.safetensors", tokenizer }), { code: "embedder/options" });
  await assert.rejects(miniLmEmbedder({ weights: pathToFileURL(join(model, "absent.safetensors")), tokenizer }), {
    code: "embedder/unavailable",
  });
  // The packaged embedder still works after those failures.
  assert.equal((await embedder.embed(["still here"], "query"))[0].length, 384);
});

test("the module built without SIMD, for hosts that lack it, has none and gives the SIMD module's vectors to the bit", { timeout: 300_000 }, async () => {
  const dir = join(pkgDir, "embedders", "minilm");
  const binaryen = (await import("binaryen")).default;
  const scalar = binaryen.readBinary(readFileSync(join(dir, "minilm_nosimd_bg.wasm")));
  scalar.setFeatures(binaryen.Features.All & ~binaryen.Features.SIMD128);
  assert.ok(scalar.validate(), "valid without the SIMD feature");
  scalar.dispose();
  // One module per process (embedders/wasm.js): the other in a child.
  const texts = reference.cases.map((c) => c.text);
  const child = `
    import { miniLmEmbedder } from "memdoc/embedders/minilm";
    const embedder = await miniLmEmbedder({ module: new URL(${JSON.stringify(pathToFileURL(join(dir, "minilm_nosimd_bg.wasm")).href)}), weights: new URL(${JSON.stringify(pathToFileURL(join(minilmDir, "model.fp16.safetensors")).href)}) });
    const vectors = await embedder.embed(${JSON.stringify(texts)}, "document");
    console.log(JSON.stringify(vectors.map((v) => Array.from(v))));`;
  const got = JSON.parse(execFileSync("node", ["--input-type=module", "-e", child], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }));
  const simd = await (await miniLmEmbedder()).embed(texts, "document");
  assert.deepEqual(got, simd.map((v) => Array.from(v)));
});
