// The Chinese and cross-lingual evaluation set (tests/recall/eval-zh)
// through the package, with memdoc/embedders/e5 over the model file `bash
// scripts/setup` fetched (target/models/multilingual-e5-small/): Chinese
// paraphrases at least 80% within 1,200 code points and 60% within 400,
// cross-lingual questions 60% within 1,200, every Chinese keyword question
// words alone answer within 400 still answered; the unanswerable ones are
// reported. tests/recall_eval_zh.rs asserts the same natively.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import * as memdoc from "../pkg/node.js";
import { e5Embedder } from "../pkg/embedders/e5.js";
import { measure } from "../tests/recall/eval-zh/harness.mjs";
import { root } from "./helpers.mjs";

const modelPath = join(root, "target", "models", "multilingual-e5-small", "e5-small-q4.bin");
const pct = (x) => `${(x * 100).toFixed(1)}%`;

test("e5Embedder: unit vectors, the two prefixes, coded errors without a model or with a bad one", async () => {
  assert.ok(existsSync(modelPath), `no ${modelPath}: run bash scripts/setup`);
  await assert.rejects(e5Embedder(), { code: "embedder/options" });
  await assert.rejects(e5Embedder({ model: new Uint8Array(10) }), { code: "embedder/weights" });
  const embedder = await e5Embedder({ model: pathToFileURL(modelPath) });
  assert.equal(embedder.id, "multilingual-e5-small-q4");
  const [query, passage] = [...(await embedder.embed(["数据库"], "query")), ...(await embedder.embed(["数据库"], "document"))];
  assert.equal(query.length, 384);
  const norm = Math.hypot(...query);
  assert.ok(Math.abs(norm - 1) < 1e-4, `${norm}`);
  assert.notDeepEqual(query, passage, "the prefixes differ");
});

test("with e5: Chinese paraphrases, cross-lingual and keyword questions find their answers", async () => {
  const embedder = await e5Embedder({ model: pathToFileURL(modelPath) });
  const { lexical, hybrid } = await measure(memdoc, embedder);
  for (const kind of ["paraphrase", "cross-lingual", "keyword"]) {
    console.log(
      `${kind}: words ${pct(lexical[kind].within1200)} within 1,200, ${pct(lexical[kind].within400)} within 400; ` +
        `words and e5 ${pct(hybrid[kind].within1200)}, ${pct(hybrid[kind].within400)}`,
    );
  }
  console.log(`unanswerable selecting nothing: words ${pct(lexical.none.silent)}, words and e5 ${pct(hybrid.none.silent)}`);
  assert.ok(hybrid.paraphrase.within1200 >= 0.8, pct(hybrid.paraphrase.within1200));
  assert.ok(hybrid.paraphrase.within400 >= 0.6, pct(hybrid.paraphrase.within400));
  assert.ok(hybrid["cross-lingual"].within1200 >= 0.6, pct(hybrid["cross-lingual"].within1200));
  for (const budget of [1200, 400]) {
    const lost = [...lexical.keyword.found[budget]].filter((q) => !hybrid.keyword.found[budget].has(q));
    assert.deepEqual(lost, [], `keyword questions words alone answer within ${budget} and e5 does not`);
  }
});
