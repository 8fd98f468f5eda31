// memdoc's embedded embedders in real workerd: fixtures/worker-embedder.mjs
// is bundled by wrangler as a user's Worker would be, the static table,
// MiniLM's weights and the tokenizer uploaded as Data modules and the
// embedders' .wasm as a compiled module, and runs in workerd through
// Miniflare. For each embedder its vectors are Node's for the same texts
// (and within its bound of the independent computation,
// embedders/minilm/tests/reference.json), and its hybridRecall over a
// memory of the evaluation set gives Node's result for the paraphrased
// questions of that memory. (A Cloudflare Worker isolate has 128 MB, which
// MiniLM does not fit: docs/API.md. workerd itself sets no such limit.)
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { hybridRecall } from "memdoc";
import { miniLmEmbedder } from "memdoc/embedders/minilm";
import { staticEmbedder } from "memdoc/embedders/static";
import { Miniflare } from "miniflare";

import { answered, memory, optionsOf, questions } from "../../tests/recall/eval/harness.mjs";
import { root } from "../helpers.mjs";
import { cosine, staticReference } from "../static-reference.mjs";
import { MODULE_RULES, bundle, stop } from "./wrangler-bundle.mjs";

const compatibilityDate = "2025-01-01";
const work = mkdtempSync(join(tmpdir(), "memdoc-workerd-embedders-"));
const reference = (await import("../../embedders/minilm/tests/reference.json", { with: { type: "json" } })).default;
let mf;

before(async () => {
  const { out, upload } = bundle(work, {
    name: "memdoc-embedders-test",
    main: join(root, "test-js", "runtimes", "fixtures", "worker-embedder.mjs"),
    compatibility_date: compatibilityDate,
    rules: [{ type: "Data", globs: ["**/*.i8", "**/*.safetensors", "**/tokenizer.json"], fallthrough: true }],
  });
  console.log(`wrangler bundle with the static table and MiniLM's weights: ${upload}`);
  const files = readdirSync(out);
  for (const file of ["all-MiniLM-L6-v2-static-256.i8", "model.fp16.safetensors", "tokenizer.json", "minilm_bg.wasm"]) {
    assert.ok(files.some((f) => f.endsWith(file)), `${file} should be a module of the upload: ${files}`);
  }
  mf = new Miniflare({ modules: true, scriptPath: join(out, "worker-embedder.js"), modulesRoot: out, modulesRules: MODULE_RULES, compatibilityDate });
  await mf.ready;
});

after(() => stop(mf, work));

const EMBEDDERS = [
  {
    name: "static",
    id: "all-MiniLM-L6-v2-static-256-v2",
    dimensions: 256,
    inNode: () => staticEmbedder(),
    reference: () => staticReference(),
    // The table's vectors are sums of its rows: the same bits as the independent computation's up to rounding.
    worstCosine: 0.99999,
    // The evaluation set's floor for the static table is 75% over all memories (test-js/recall-eval.test.mjs).
    floor: 1 / 2,
  },
  {
    name: "minilm",
    id: "all-MiniLM-L6-v2",
    dimensions: 384,
    inNode: () => miniLmEmbedder(),
    reference: () => reference.cases.map((c) => ({ text: c.text, vector: c.vector })),
    // The packaged f16 weights against the f32 reference (docs/API.md: 0.9999991 at worst).
    worstCosine: 0.99999,
    floor: 3 / 4,
  },
];

for (const embedder of EMBEDDERS) {
  test(`the ${embedder.name} embedder in workerd: Node's vectors, and hybridRecall by meaning as in Node`, { timeout: 600_000 }, async () => {
    const expected = embedder.reference();
    const texts = expected.map((c) => c.text);
    const name = "team-platform";
    const asked = questions.filter((q) => q.memory === name && q.kind === "paraphrase");
    assert.ok(asked.length >= 10);
    const request = {
      embedder: embedder.name,
      texts,
      memory: memory(name),
      questions: asked.map((q) => ({ question: q.question, options: optionsOf(q, 1_200) })),
    };
    const response = await mf.dispatchFetch("http://memdoc.test/", { method: "POST", body: JSON.stringify(request) });
    const got = await response.json();
    assert.equal(response.status, 200, JSON.stringify(got));
    assert.equal(got.id, embedder.id);
    assert.equal(got.dimensions, embedder.dimensions);

    const node = await embedder.inNode();
    const inNode = await node.embed(texts, "document");
    let worstNode = 0;
    let worstReference = 1;
    got.vectors.forEach((v, i) => {
      assert.equal(v.length, embedder.dimensions);
      worstNode = Math.max(worstNode, ...v.map((x, d) => Math.abs(x - inNode[i][d])));
      worstReference = Math.min(worstReference, cosine(v, expected[i].vector));
    });
    assert.ok(worstNode <= 1e-6, `largest difference from Node ${worstNode}`);
    assert.ok(worstReference >= embedder.worstCosine, `worst cosine ${worstReference}`);

    // Each question shares no content word with its answer: what workerd recalls by meaning is what Node does.
    let found = 0;
    for (const [i, q] of asked.entries()) {
      const recalled = got.recalled[i];
      assert.deepEqual(recalled.semantic, { model: embedder.id, degraded: null });
      // Through JSON, as workerd's answer came (a cosine of -0 arrives as 0).
      const here = JSON.parse(JSON.stringify(await hybridRecall(memory(name), q.question, { ...optionsOf(q, 1_200), embedder: node })));
      assert.deepEqual(recalled, here, q.question);
      if (answered(q, recalled)) found += 1;
    }
    console.log(
      `workerd ${embedder.name}: ${texts.length} texts, largest difference from Node ${worstNode.toExponential(2)}, worst cosine against the independent computation ` +
        `${worstReference.toFixed(7)}; ${found} of ${asked.length} paraphrased questions of ${name} answered within 1,200, as in Node`,
    );
    assert.ok(found >= asked.length * embedder.floor, `${found} of ${asked.length}`);
  });
}
