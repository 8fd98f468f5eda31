// The recall evaluation set (tests/recall/eval) through the package: its
// paraphrase questions share no content word with their answers (check.mjs);
// by words alone every keyword question is answered and no unanswerable
// question selects anything; with MiniLM (`memdoc/embedders/minilm`) the
// paraphrase floors hold. tests/recall_eval.rs asserts the same natively.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as memdoc from "../pkg/node.js";
import { violations } from "../tests/recall/eval/check.mjs";
import { evaluateHeldout, measure, memory, optionsOf, questions } from "../tests/recall/eval/harness.mjs";

test("the set has its documented shape, and paraphrases share no content word with their answers", () => {
  const kinds = (kind) => questions.filter((q) => q.kind === kind).length;
  assert.ok(questions.length >= 80);
  assert.ok(kinds("paraphrase") >= 60);
  assert.ok(kinds("none") >= 10);
  assert.deepEqual(violations(memdoc), []);
});

test("by words: keyword questions answered, unanswerable ones select nothing", async () => {
  const { lexical } = await measure(memdoc);
  assert.equal(lexical.keyword, 1, `missed: ${lexical.missed.join("; ")}`);
  assert.equal(lexical.noneSilent, 1, `missed: ${lexical.missed.join("; ")}`);
});

test("with MiniLM: 90% of paraphrases within 1,200 code points, 75% within 400, one unanswerable question of 12 selects nothing", async () => {
  const { miniLmEmbedder } = await import("../pkg/embedders/minilm.js");
  const embedder = await miniLmEmbedder();
  const { hybrid } = await measure(memdoc, embedder);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `MiniLM: paraphrases ${pct(hybrid.paraphrase1200)} within 1,200, ${pct(hybrid.paraphrase400)} within 400; keyword ${pct(hybrid.keyword)}; unanswerable selecting nothing ${pct(hybrid.noneSilent)}; AUC ${hybrid.auc.toFixed(3)}`,
  );
  assert.ok(hybrid.paraphrase1200 >= 0.9, pct(hybrid.paraphrase1200));
  assert.ok(hybrid.paraphrase400 >= 0.75, pct(hybrid.paraphrase400));
  assert.equal(hybrid.keyword, 1);
  // tests/recall_eval.rs's MINILM_NONE_FLOOR: MiniLM's query floor.
  assert.ok(hybrid.noneSilent >= 0.08, pct(hybrid.noneSilent));
});

test("with the static table: its paraphrase floors (docs/API.md), every keyword question", async () => {
  const { staticEmbedder } = await import("../pkg/embedders/static.js");
  const { hybrid } = await measure(memdoc, await staticEmbedder());
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `static: paraphrases ${pct(hybrid.paraphrase1200)} within 1,200, ${pct(hybrid.paraphrase400)} within 400; keyword ${pct(hybrid.keyword)}; unanswerable selecting nothing ${pct(hybrid.noneSilent)}; AUC ${hybrid.auc.toFixed(3)}`,
  );
  // tests/recall_eval.rs's STATIC_FLOOR_1200 and STATIC_FLOOR_400.
  assert.ok(hybrid.paraphrase1200 >= 0.90, pct(hybrid.paraphrase1200));
  assert.ok(hybrid.paraphrase400 >= 0.74, pct(hybrid.paraphrase400));
  assert.equal(hybrid.keyword, 1);
});

// The held-out set (tests/recall/eval/heldout.json), which the calibration
// never sees; the floors of tests/recall_eval.rs.
const pct = (x) => `${(x * 100).toFixed(1)}%`;

test("held out, by words: replaced facts newest first, keyword questions with their forms, unanswerable ones", async () => {
  const r = await evaluateHeldout(async (q, budget) => memdoc.recall(memory(q.memory), q.question, optionsOf(q, budget)));
  console.log(`words: replaced ${pct(r.replaced)}; keyword ${pct(r.keyword)}; unanswerable selecting nothing ${pct(r.noneSilent)}`);
  assert.deepEqual(r.staleAlone, []);
  assert.ok(r.replaced >= 0.95, pct(r.replaced));
  assert.ok(r.keyword >= 0.97, pct(r.keyword));
  assert.ok(r.noneSilent >= 0.75, pct(r.noneSilent));
});

test("held out, with MiniLM: replaced facts newest first, paraphrase floors", async () => {
  const { miniLmEmbedder } = await import("../pkg/embedders/minilm.js");
  const embedder = await miniLmEmbedder();
  const r = await evaluateHeldout((q, budget) =>
    memdoc.hybridRecall(memory(q.memory), q.question, { ...optionsOf(q, budget), embedder }),
  );
  console.log(
    `MiniLM: replaced ${pct(r.replaced)}; paraphrases ${pct(r.paraphrase1200)} within 1,200, ${pct(r.paraphrase400)} within 400; unanswerable selecting nothing ${pct(r.noneSilent)}`,
  );
  assert.deepEqual(r.staleAlone, []);
  assert.ok(r.replaced >= 0.95, pct(r.replaced));
  assert.ok(r.paraphrase1200 >= 0.95, pct(r.paraphrase1200));
  assert.ok(r.paraphrase400 >= 0.85, pct(r.paraphrase400));
});

test("held out, with the static table: paraphrase floors", async () => {
  const { staticEmbedder } = await import("../pkg/embedders/static.js");
  const embedder = await staticEmbedder();
  const r = await evaluateHeldout((q, budget) =>
    memdoc.hybridRecall(memory(q.memory), q.question, { ...optionsOf(q, budget), embedder }),
  );
  console.log(`static: paraphrases ${pct(r.paraphrase1200)} within 1,200, ${pct(r.paraphrase400)} within 400`);
  // tests/recall_eval.rs's HELDOUT_STATIC_FLOOR_1200 and HELDOUT_STATIC_FLOOR_400.
  assert.ok(r.paraphrase1200 >= 0.83, pct(r.paraphrase1200));
  assert.ok(r.paraphrase400 >= 0.63, pct(r.paraphrase400));
});
