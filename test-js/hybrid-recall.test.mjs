// hybridRecall through the built package: the vectors' result is the native
// one (tests/recall/vectors.json), embedders over a stand-in Workers AI
// binding and a local /v1/embeddings server, the vector cache (an unchanged
// item is never embedded twice; a new model embeds again), and the
// degraded path when the embedder fails.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { test } from "node:test";

import { PreparedRecall, hybridRecall, lruCache, recall, recallItems, recallWithVectors } from "../pkg/node.js";
import { openAiEmbedder } from "../pkg/embedders/openai.js";
import { workersAiEmbedder } from "../pkg/embedders/workers-ai.js";
import { root, thrown } from "./helpers.mjs";

const MEMORY = `## Engineering Decisions
- 2025-01-10: Services use PostgreSQL 16
- 2025-03-02: Production releases only ship on Tuesdays and Thursdays

## Facts
- 2025-02-14: The weekly engineering meeting is Monday at 10:00 in room Fjord
- 2024-11-01: The office is in Oslo`;

const OPTIONS = { scope: "team", budget: 4000, today: "2025-06-01" };

// The stand-in model: a word's concept (words of one meaning share one), each
// concept one dimension, a text the normalised sum of its concepts.
const CONCEPTS = [
  ["database", "relational", "postgresql", "postgres", "sql"],
  ["release", "releases", "deploy", "ship", "production", "prod"],
  ["meeting", "sync", "weekly", "recurring", "monday"],
  ["office", "oslo", "city", "located"],
  ["tuesdays", "thursdays", "weekdays", "days"],
];
const DIMENSIONS = 8;

function standInVector(text) {
  const v = new Array(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const k = CONCEPTS.findIndex((c) => c.includes(word));
    if (k >= 0) v[k] += 1;
  }
  v[DIMENSIONS - 1] = 0.05;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** A stand-in for a Worker's `env.AI`: counts calls and texts. */
function standInAi() {
  const ai = {
    calls: 0,
    texts: [],
    async run(model, { text }) {
      ai.calls++;
      ai.texts.push(...text);
      assert.ok(text.length <= 100, "at most 100 texts a call");
      return { shape: [text.length, DIMENSIONS], data: text.map(standInVector) };
    },
  };
  return ai;
}

test("recallWithVectors gives the native result for the same vectors, byte for byte", () => {
  const f = JSON.parse(readFileSync(join(root, "tests", "recall", "vectors.json"), "utf8"));
  assert.equal(recallItems(f.memory).length * f.queryVector.length, f.itemVectors.length);
  const got = recallWithVectors(
    f.memory,
    f.query,
    f.options,
    f.embedder,
    Float32Array.from(f.queryVector),
    Float32Array.from(f.itemVectors),
  );
  // Every number compared with Object.is: the same bits.
  assert.deepEqual(got, f.expected);
});

test("a PreparedRecall checks its options at once, lists the items and finishes as recall does", () => {
  assert.equal(thrown(() => new PreparedRecall(MEMORY, "q", { budget: 0 })).code, "options/invalid-budget");
  assert.equal(thrown(() => new PreparedRecall(MEMORY, 7)).code, "input/not-a-string");
  const prepared = new PreparedRecall(MEMORY, "which database do services use", OPTIONS);
  assert.deepEqual(prepared.items, recallItems(MEMORY));
  assert.deepEqual(prepared.finish(), recall(MEMORY, "which database do services use", OPTIONS));
  const items = recallItems(MEMORY).map(standInVector).flat();
  const query = standInVector("relational database");
  const byVectors = new PreparedRecall(MEMORY, "relational database", OPTIONS).finishWithVectors("stand-in", query, items);
  assert.deepEqual(byVectors, recallWithVectors(MEMORY, "relational database", OPTIONS, "stand-in", query, items));
  assert.equal(byVectors.selected[0].text, "Services use PostgreSQL 16");
  new PreparedRecall(MEMORY, "q").free();
});

test("a PreparedRecall is finished once, either way, even when its vectors do not fit", () => {
  const byWords = new PreparedRecall(MEMORY, "postgres", OPTIONS);
  byWords.finish();
  assert.ok(thrown(() => byWords.finish()) instanceof Error, "a second finish should throw");
  const misfit = new PreparedRecall(MEMORY, "postgres", OPTIONS);
  const error = thrown(() => misfit.finishWithVectors("x", new Float32Array(4), new Float32Array(3)));
  assert.equal(error.code, "options/invalid-vectors");
  assert.ok(thrown(() => misfit.finish()) instanceof Error, "the memory is released after a refused finish too");
});

test("recallWithVectors refuses vectors that do not fit with a coded error", () => {
  const items = recallItems(MEMORY).length;
  const error = thrown(() => recallWithVectors(MEMORY, "q", {}, "x", new Float32Array(4), new Float32Array(4 * items - 1)));
  assert.equal(error.code, "options/invalid-vectors");
});

test("hybridRecall answers the issue's questions by meaning, explaining every part", async () => {
  const ai = standInAi();
  const embedder = workersAiEmbedder(ai, { model: "@cf/baai/bge-small-en-v1.5", dimensions: DIMENSIONS });
  const cache = lruCache();
  const lexical = recall(MEMORY, "which relational database do we run?", OPTIONS);
  assert.equal(lexical.selected.length, 0, "by words, nothing");
  const r = await hybridRecall(MEMORY, "which relational database do we run?", { ...OPTIONS, embedder, cache });
  assert.deepEqual(r.semantic, { model: "@cf/baai/bge-small-en-v1.5", degraded: null });
  assert.deepEqual(
    r.selected.map((s) => s.text),
    ["Services use PostgreSQL 16"],
  );
  const why = r.selected[0].why;
  assert.ok(why.relevance >= 0.5 && why.relevance <= 1);
  assert.equal(why.relevance, Math.max(why.lexical.normalized, why.semantic.normalized));
  assert.ok(why.semantic.raw > 0.9, "cosine");
  assert.deepEqual(why.recency.raw, 142);
  assert.equal(why.priority.raw, "core");
  assert.equal(why.pinned, false);
  assert.ok(r.omitted.every((o) => o.reason === "no-match"));
  const sync = await hybridRecall(MEMORY, "when is the recurring team sync?", { ...OPTIONS, embedder, cache });
  assert.ok(sync.selected.some((s) => s.text.startsWith("The weekly engineering meeting")));
  // The query went with BGE's instruction; the documents as they are.
  assert.ok(ai.texts.includes("Represent this sentence for searching relevant passages: when is the recurring team sync?"));
  assert.ok(ai.texts.includes("Services use PostgreSQL 16"));
});

test("an unchanged item is never embedded twice; a changed one is; a new model embeds again", async () => {
  const ai = standInAi();
  const embedder = workersAiEmbedder(ai, { model: "@cf/baai/bge-small-en-v1.5", dimensions: DIMENSIONS });
  const items = recallItems(MEMORY).length;
  await hybridRecall(MEMORY, "database", { ...OPTIONS, embedder });
  assert.equal(ai.texts.length, items + 1, "every item once, and the query");
  ai.texts.length = 0;
  await hybridRecall(MEMORY, "office", { ...OPTIONS, embedder });
  assert.equal(ai.texts.length, 1, "the query only: the default cache is shared by every call");
  ai.texts.length = 0;
  const edited = MEMORY.replace("in Oslo", "in Bergen");
  await hybridRecall(`${edited}\n- 2025-05-01: The office  is in   Bergen`, "office", { ...OPTIONS, embedder });
  // The changed item once (its copy, the same text once normalised, is not
  // embedded again); the query, asked before, from the embedder's recent queries.
  assert.deepEqual(ai.texts, ["The office is in Bergen"]);
  ai.texts.length = 0;
  const m3 = workersAiEmbedder(ai, { model: "@cf/baai/bge-m3", dimensions: DIMENSIONS });
  const r = await hybridRecall(MEMORY, "office", { ...OPTIONS, embedder: m3 });
  assert.equal(ai.texts.length, items + 1, "another model: every item again");
  assert.equal(r.semantic.model, "@cf/baai/bge-m3");
});

test("any { getMany, setMany } serves as the cache", async () => {
  const store = new Map();
  const calls = [];
  const cache = {
    async getMany(keys) {
      calls.push(["get", keys.length]);
      return keys.map((k) => store.get(k));
    },
    async setMany(entries) {
      calls.push(["set", entries.length]);
      for (const [k, v] of entries) store.set(k, v);
    },
  };
  const ai = standInAi();
  const embedder = workersAiEmbedder(ai, { model: "custom-model", dimensions: DIMENSIONS });
  const items = recallItems(MEMORY).length;
  await hybridRecall(MEMORY, "database", { ...OPTIONS, embedder, cache });
  await hybridRecall(MEMORY, "database", { ...OPTIONS, embedder, cache });
  assert.deepEqual(calls, [["get", items], ["set", items], ["get", items]]);
  assert.equal(store.size, items);
  assert.ok([...store.keys()].every((k) => k.startsWith("custom-model:")));
  // The query embedded once for both calls.
  assert.equal(ai.texts.length, items + 1);
});

test("more than 100 texts go in calls of at most 100", async () => {
  const ai = standInAi();
  const embedder = workersAiEmbedder(ai, { dimensions: DIMENSIONS });
  const big = `## Log\n${Array.from({ length: 250 }, (_, i) => `- 2025-01-01: note ${i}`).join("\n")}`;
  const r = await hybridRecall(big, "note 7", { embedder, cache: lruCache() });
  assert.equal(r.semantic.degraded, null);
  assert.equal(ai.calls, 4, "the query, then 100, 100 and 50 items");
});

test("a failing embedder gives recall by words, saying so; never another model", async () => {
  const failing = {
    id: "all-MiniLM-L6-v2",
    dimensions: 384,
    async embed() {
      throw new Error("model not loaded");
    },
  };
  const query = "where is the office";
  const r = await hybridRecall(MEMORY, query, { ...OPTIONS, embedder: failing, cache: lruCache() });
  assert.deepEqual(r.semantic, { model: "all-MiniLM-L6-v2", degraded: "embedder/unavailable", message: "model not loaded" });
  const { semantic, ...rest } = r;
  assert.deepEqual(rest, recall(MEMORY, query, OPTIONS));
  const wrong = { id: "w", dimensions: 3, embed: async (texts) => texts.map(() => new Float32Array(2)) };
  const w = await hybridRecall(MEMORY, query, { ...OPTIONS, embedder: wrong, cache: lruCache() });
  assert.equal(w.semantic.degraded, "embedder/unavailable");
  assert.match(w.semantic.message, /dimensions/);
});

test("bad arguments are coded errors before anything is embedded", async () => {
  const ai = standInAi();
  const embedder = workersAiEmbedder(ai, { dimensions: DIMENSIONS });
  await assert.rejects(hybridRecall(MEMORY, "q", { embedder: {} }), { code: "options/invalid" });
  await assert.rejects(hybridRecall(MEMORY, "q", { embedder, budget: 0 }), { code: "options/invalid-budget" });
  await assert.rejects(hybridRecall(42, "q", { embedder }), { code: "input/not-a-string" });
  await assert.rejects(hybridRecall(MEMORY, null, { embedder }), { code: "input/not-a-string" });
  assert.equal(ai.calls, 0);
  assert.equal(thrown(() => workersAiEmbedder(ai, { model: "@cf/unknown" })).code, "options/invalid");
});

test("openAiEmbedder speaks /v1/embeddings: sorted by index, dimensions only when given", async () => {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const json = JSON.parse(body);
      requests.push({ url: req.url, auth: req.headers.authorization, body: json });
      if (json.model === "broken") {
        res.writeHead(503).end("overloaded");
        return;
      }
      // In reverse order: the client must sort by index.
      const data = json.input.map((t, index) => ({ object: "embedding", index, embedding: standInVector(t) })).reverse();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data, model: json.model }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  try {
    const embedder = openAiEmbedder({ baseURL, apiKey: "sk-test", model: "text-embedding-3-small" });
    assert.equal(embedder.id, "text-embedding-3-small");
    const r = await hybridRecall(MEMORY, "which relational database do we run?", { ...OPTIONS, embedder, cache: lruCache() });
    assert.deepEqual(r.selected.map((s) => s.text), ["Services use PostgreSQL 16"]);
    assert.equal(requests[0].url, "/v1/embeddings");
    assert.equal(requests[0].auth, "Bearer sk-test");
    assert.ok(requests.every((q) => !("dimensions" in q.body)), "no dimensions unless given");
    const short = openAiEmbedder({ baseURL: `${baseURL}/`, model: "text-embedding-3-small", dimensions: DIMENSIONS });
    assert.equal(short.id, "text-embedding-3-small@8");
    const [v] = await short.embed(["office"], "document");
    assert.ok(v instanceof Float32Array && v.length === DIMENSIONS);
    const last = requests.at(-1);
    assert.equal(last.body.dimensions, DIMENSIONS);
    assert.equal(last.auth, undefined);
    const broken = openAiEmbedder({ baseURL, model: "broken" });
    const d = await hybridRecall(MEMORY, "office", { ...OPTIONS, embedder: broken, cache: lruCache() });
    assert.equal(d.semantic.degraded, "embedder/unavailable");
    assert.match(d.semantic.message, /503/);
  } finally {
    server.close();
  }
});
