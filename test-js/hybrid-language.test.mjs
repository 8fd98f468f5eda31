// hybridRecall's choice of embedder (pkg-template/language.js): with a
// `multilingualEmbedder`, a memory or a query mostly not in Latin letters
// is embedded by it, everything else by `embedder`; a bad one is refused
// with a coded error before anything is embedded.
import assert from "node:assert/strict";
import { test } from "node:test";

import { hybridRecall, lruCache } from "../pkg/node.js";

/** An embedder that records what it embedded (a fixed vector per text). */
function recording(id) {
  const texts = [];
  return { id, dimensions: 2, texts, embed: async (batch) => (texts.push(...batch), batch.map(() => Float32Array.of(1, 0))) };
}

const english = "## Facts\n- 2025-01-01: Services use PostgreSQL 16\n";
const chinese = "## 事实\n- 2025-01-01: 所有后端服务的主库是 PostgreSQL 16\n";

test("the multilingual embedder for a memory or a query mostly not in Latin letters", async () => {
  for (const [text, query, expected] of [
    [english, "which database?", "en"],
    [chinese, "which database?", "multi"],
    [english, "我们用哪个数据库？", "multi"],
    [chinese, "主库是什么", "multi"],
    [english, "PostgreSQL 数据库", "en"],
  ]) {
    const en = recording("en");
    const multi = recording("multi");
    const result = await hybridRecall(text, query, { embedder: en, multilingualEmbedder: multi, cache: lruCache() });
    assert.equal(result.semantic.model, expected, `${query} in ${text}`);
    assert.equal((expected === "en" ? multi : en).texts.length, 0, "the other embedder embedded nothing");
  }
});

test("without a multilingual embedder, the embedder; a bad one is refused", async () => {
  const en = recording("en");
  assert.equal((await hybridRecall(chinese, "主库", { embedder: en, cache: lruCache() })).semantic.model, "en");
  await assert.rejects(hybridRecall(chinese, "主库", { embedder: en, multilingualEmbedder: {} }), { code: "options/invalid", message: /multilingualEmbedder/ });
});
