// memdoc's static embedder in real workerd: fixtures/worker-static.mjs is
// bundled by wrangler as a user's Worker would be, the table and tokenizer
// uploaded as Data modules and the embedders' .wasm as a compiled module,
// and runs in workerd through Miniflare. Its vectors are Node's for the same
// texts (and the independent computation's, test-js/static-reference.mjs),
// and its hybridRecall over a memory of the evaluation set gives Node's
// result for every paraphrased question of that memory.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { hybridRecall } from "memdoc";
import { staticEmbedder } from "memdoc/embedders/static";
import { Miniflare } from "miniflare";

import { answered, memory, optionsOf, questions } from "../../tests/recall-eval/harness.mjs";
import { root } from "../helpers.mjs";
import { cosine, staticReference } from "../static-reference.mjs";
import { MODULE_RULES, bundle, stop } from "./wrangler-bundle.mjs";

const compatibilityDate = "2025-01-01";
const work = mkdtempSync(join(tmpdir(), "memdoc-workerd-static-"));
let mf;

before(async () => {
  const { out, upload } = bundle(work, {
    name: "memdoc-static-test",
    main: join(root, "test-js", "runtimes", "fixtures", "worker-static.mjs"),
    compatibility_date: compatibilityDate,
    rules: [{ type: "Data", globs: ["**/*.i8", "**/tokenizer.json"], fallthrough: true }],
  });
  console.log(`wrangler bundle with the static table: ${upload}`);
  const files = readdirSync(out);
  for (const file of ["all-MiniLM-L6-v2-static-256.i8", "tokenizer.json", "minilm_bg.wasm"]) {
    assert.ok(files.some((f) => f.endsWith(file)), `${file} should be a module of the upload: ${files}`);
  }
  mf = new Miniflare({ modules: true, scriptPath: join(out, "worker-static.js"), modulesRoot: out, modulesRules: MODULE_RULES, compatibilityDate });
  await mf.ready;
});

after(() => stop(mf, work));

test("the static embedder in workerd: Node's vectors, and hybridRecall by meaning as in Node", { timeout: 300_000 }, async () => {
  const reference = staticReference();
  const texts = reference.map((c) => c.text);
  const name = "team-platform";
  const asked = questions.filter((q) => q.memory === name && q.kind === "paraphrase");
  assert.ok(asked.length >= 10);
  const request = { texts, memory: memory(name), questions: asked.map((q) => ({ question: q.question, options: optionsOf(q, 1_200) })) };
  const response = await mf.dispatchFetch("http://memdoc.test/", { method: "POST", body: JSON.stringify(request) });
  const got = await response.json();
  assert.equal(response.status, 200, JSON.stringify(got));
  assert.equal(got.id, "all-MiniLM-L6-v2-static-256");
  assert.equal(got.dimensions, 256);

  const node = await staticEmbedder();
  const inNode = await node.embed(texts, "document");
  let worstNode = 0;
  let worstReference = 1;
  got.vectors.forEach((v, i) => {
    assert.equal(v.length, 256);
    worstNode = Math.max(worstNode, ...v.map((x, d) => Math.abs(x - inNode[i][d])));
    worstReference = Math.min(worstReference, cosine(v, reference[i].vector));
  });
  assert.ok(worstNode <= 1e-6, `largest difference from Node ${worstNode}`);
  assert.ok(worstReference >= 0.99999, `worst cosine ${worstReference}`);

  // Each question shares no content word with its answer: what workerd recalls by meaning is what Node does.
  let found = 0;
  for (const [i, q] of asked.entries()) {
    const recalled = got.recalled[i];
    assert.deepEqual(recalled.semantic, { model: "all-MiniLM-L6-v2-static-256", degraded: null });
    assert.deepEqual(recalled, await hybridRecall(memory(name), q.question, { ...optionsOf(q, 1_200), embedder: node }), q.question);
    if (answered(q, recalled)) found += 1;
  }
  console.log(
    `workerd static: ${texts.length} texts, largest difference from Node ${worstNode.toExponential(2)}, worst cosine against the independent computation ` +
      `${worstReference.toFixed(7)}; ${found} of ${asked.length} paraphrased questions of ${name} answered within 1,200, as in Node`,
  );
  // The evaluation set's floor for the static table is 75% over all memories (test-js/recall-eval.test.mjs).
  assert.ok(found >= asked.length / 2, `${found} of ${asked.length}`);
});
