// The work of a team recall and of the indexing (docs/HUB.md, "Recall
// across a team", "Recall by meaning", "Limits"), on the hub application
// itself in Node with the real static embedder, over an in-memory
// TeamStorage whose reads and writes are counted: one read of item vectors
// per memory (its record, in chunks under a value's size) and none for
// texts recalled before, one write of the stats per team recall, a turn
// between every two memories, indexing in calls of at most 16 texts that
// embeds only a new revision's changed items, the earlier layout's
// per-item vectors deleted by the sweep, and a purge leaving no vectors.
// The HTTP suite checks the answers on both targets.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";

import { staticEmbedder } from "memdoc/embedders/static";

import { createHub, hubConfig } from "../src/app.js";
import { CHUNK_BYTES, LAYOUT_PAGE } from "../src/data/vectors.js";
import { mapStorage } from "./map-storage.mjs";

const operator = randomBytes(24).toString("base64url");
let model = null;

/**
 * A hub of teams in counted map storages; `embeds` records each embedding
 * call's size; the indexing's calls wait for what `held()` gives at the call
 * (by default nothing).
 */
function hubWithCounts(held = () => undefined) {
  const teams = new Map();
  const counts = { vectorReads: 0, namespaceLists: 0, namespaceLimits: [], statsWrites: 0, vectorWrites: 0, turns: 0, embeds: [] };
  const background = [];
  const counted = (storage) => ({
    ...storage,
    async getMany(keys) {
      if (keys.some((k) => k[0] === "vectors")) counts.vectorReads += 1;
      return storage.getMany(keys);
    },
    async get(key) {
      if (key[0] === "vectors") counts.vectorReads += 1;
      return storage.get(key);
    },
    async list(prefix, o) {
      if (prefix[0] === "vectors") counts.vectorReads += 1;
      if (prefix.length === 1 && prefix[0] === "vectors") {
        counts.namespaceLists += 1;
        counts.namespaceLimits.push(o?.limit);
      }
      return storage.list(prefix, o);
    },
    async put(key, value) {
      if (key[0] === "stats") counts.statsWrites += 1;
      if (key[0] === "vectors") counts.vectorWrites += 1;
      return storage.put(key, value);
    },
    async putMany(entries) {
      if (entries.some(([k]) => k[0] === "vectors")) counts.vectorWrites += 1;
      return storage.putMany(entries);
    },
  });
  const embedder = async () => {
    model ??= await staticEmbedder();
    return { id: model.id, dimensions: model.dimensions, embed: async (texts, kind) => {
        counts.embeds.push({ kind, n: texts.length });
        if (kind === "document") await held();
        return model.embed(texts, kind);
      },
    };
  };
  const loaded = embedder();
  const hub = createHub(hubConfig({ MEMDOC_HUB_OPERATOR_TOKEN: operator }), {
    team: (name, o) => {
      if (!teams.has(name) && o?.create) teams.set(name, counted(mapStorage(`${name}-${randomBytes(6).toString("hex")}`)));
      return teams.get(name) ?? null;
    },
    subscribe: () => new Response(null, { status: 500 }),
    embedder: () => loaded,
    background: (work) => background.push(work),
    turn: async () => {
      counts.turns += 1;
    },
    log: () => {},
  });
  const call = async (method, path, key, body, headers = {}) => {
    const r = await hub.fetch(new Request(`http://hub${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": typeof body === "string" ? "text/markdown" : "application/json", ...headers }, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) }), { client: "test" });
    const text = await r.text();
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  /** Every indexing queued so far, done. */
  const indexed = async () => {
    while (background.length > 0) await Promise.all(background.splice(0));
  };
  return { call, counts, indexed, storageOf: (name) => teams.get(name) };
}

/** A gate for the indexing's embedding calls: `close()`, `open()`, `held()` as hubWithCounts takes it. */
function embeddingGate() {
  let gate;
  let opened = () => {};
  return {
    close() {
      gate = new Promise((resolve) => (opened = resolve));
    },
    open() {
      gate = undefined;
      opened();
    },
    held: () => gate,
  };
}

/** Until the indexing has asked the embedder for `n` document calls (it is held there while the gate is closed). */
async function embedding(counts, n = 1) {
  while (counts.embeds.filter((e) => e.kind === "document").length < n) await new Promise((resolve) => setImmediate(resolve));
}

/** The storage keys of the team's vectors (joined with "/"). */
const vectorKeys = (storage) => [...storage.map.keys()].filter((k) => k.startsWith("vectors/"));

/** A team memory of `n` dated entries. */
const entries = (n, topic) => `## Decisions\n${Array.from({ length: n }, (_, i) => `- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: ${topic} decision ${i} about the release train and its checks`).join("\n")}`;

test("a team recall reads each memory's item vectors once, none for texts recalled before, and writes the stats once", async () => {
  const { call, counts, indexed } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "busy" });
  const memories = 12;
  for (let i = 0; i < memories; i += 1) await call("PUT", `/v1/teams/busy/memories/team/m${i}`, key, entries(30, `m${i}`), { "if-match": '"0"' });
  await indexed();
  const recall = "/v1/teams/busy/recall?q=release%20checks&budget=2000";

  Object.assign(counts, { vectorReads: 0, statsWrites: 0, turns: 0 });
  const first = await call("GET", recall, key);
  assert.equal(first.totals.memories, memories);
  assert.equal(first.semantic.degraded, null, JSON.stringify(first.semantic));
  assert.equal(counts.vectorReads, memories, "one read of item vectors per memory");
  assert.equal(counts.statsWrites, 1, "the stats written once for the whole team recall");
  assert.equal(counts.turns, memories - 1, "a turn between every two memories");

  Object.assign(counts, { vectorReads: 0, statsWrites: 0, turns: 0 });
  const again = await call("GET", recall, key);
  assert.equal(counts.vectorReads, 0, "the vectors of texts recalled before are not read again");
  assert.deepEqual(again.selected, first.selected, "the same answer from the vectors kept");

  // Another revision is another text: its vectors are read (once), never the old ones taken.
  const changed = `${entries(30, "m0")}\n- 2025-02-01: the release checks now run on the new staging cluster`;
  await call("PUT", "/v1/teams/busy/memories/team/m0", key, changed, { "if-match": '"1"' });
  await indexed();
  Object.assign(counts, { vectorReads: 0 });
  const after = await call("GET", "/v1/teams/busy/recall?q=staging%20cluster&budget=2000", key);
  assert.equal(counts.vectorReads, 1, "only the changed memory's vectors are read");
  assert.equal(after.semantic.degraded, null);
  assert.ok(after.selected.some((item) => /new staging cluster/.test(item.text) && item.memory.revision === 2), JSON.stringify(after.selected.slice(0, 3)));

  const stats = await call("GET", "/v1/teams/busy/stats", key);
  assert.equal(stats.recalls, 3 * memories, "one recall per memory, as before");
});

test("a team recall counts the entries past their section's policy that it recalled, from each memory's selected items", async () => {
  const { call } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "aging" });
  // Every entry of 2025 is past a policy of 30 days by the time this runs (ages count to today).
  await call("PUT", "/v1/teams/aging/policies", key, { policies: [{ section: "Decisions", maxAgeDays: 30 }] });
  await call("PUT", "/v1/teams/aging/memories/team/a", key, entries(3, "a"), { "if-match": '"0"' });
  await call("PUT", "/v1/teams/aging/memories/team/b", key, `${entries(2, "b")}\n\n## Facts\n- 2025-01-01: the release checks are documented`, { "if-match": '"0"' });
  const answer = await call("GET", "/v1/teams/aging/recall?q=release%20checks&budget=4000", key);
  assert.equal(answer.totals.selected, 6);
  const stats = await call("GET", "/v1/teams/aging/stats", key);
  // The five entries of Decisions the two memories selected; the one of Facts has no policy.
  assert.equal(stats.expiredEntriesRecalled, 5);
});

test("a memory not indexed yet is recalled by words, says index/lagging, and is read once once indexed", async () => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const { call, counts, indexed } = hubWithCounts(() => gate);
  const { key } = await call("POST", "/v1/teams", operator, { team: "lagging" });
  await call("PUT", "/v1/teams/lagging/memories/team/notes", key, entries(20, "notes"), { "if-match": '"0"' });
  // Recalled before its indexing ran: never kept as it is.
  const early = await call("GET", "/v1/teams/lagging/recall?q=release%20checks", key);
  assert.equal(early.semantic.degraded, "index/lagging");
  assert.equal(early.semantic.lag, 20);
  release();
  await indexed();
  Object.assign(counts, { vectorReads: 0 });
  const late = await call("GET", "/v1/teams/lagging/recall?q=release%20checks", key);
  assert.equal(late.semantic.degraded, null, JSON.stringify(late.semantic));
  assert.equal(counts.vectorReads, 1);
});

test("indexing embeds at most 16 texts a call into one record in chunks under a value's size, read in one storage read", async () => {
  const { call, counts, indexed, storageOf } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "indexing" });
  counts.embeds.length = 0;
  await call("PUT", "/v1/teams/indexing/memories/team/large", key, entries(200, "large"), { "if-match": '"0"' });
  await indexed();
  const documents = counts.embeds.filter((e) => e.kind === "document");
  assert.equal(documents.reduce((n, e) => n + e.n, 0), 200, "every item embedded once");
  assert.ok(documents.every((e) => e.n <= 16), JSON.stringify(documents));
  const chunks = vectorKeys(storageOf("indexing"));
  assert.ok(chunks.length > 1, `a record larger than one value is chunked: ${chunks.length}`);
  assert.ok(chunks.every((k) => k.startsWith("vectors/team/large/") && k.split("/").length === 6), chunks.join(" "));
  for (const k of chunks) {
    const value = storageOf("indexing").map.get(k);
    assert.ok(value.bytes.byteLength + value.keys.join("").length * 2 <= CHUNK_BYTES, `${k}: ${value.bytes.byteLength} bytes`);
  }
  assert.equal(chunks.reduce((n, k) => n + storageOf("indexing").map.get(k).count, 0), 200);
  Object.assign(counts, { vectorReads: 0 });
  const recalled = await call("GET", "/v1/teams/indexing/recall?q=large%20decision%20199", key);
  assert.equal(recalled.semantic.degraded, null, JSON.stringify(recalled.semantic));
  assert.equal(counts.vectorReads, 1, "the whole record in one storage read");
});

test("a new revision embeds only its changed items and leaves one record", async () => {
  const { call, counts, indexed, storageOf } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "revisions" });
  await call("PUT", "/v1/teams/revisions/memories/team/notes", key, entries(40, "notes"), { "if-match": '"0"' });
  await indexed();
  const before = vectorKeys(storageOf("revisions"));
  counts.embeds.length = 0;
  await call("PUT", "/v1/teams/revisions/memories/team/notes", key, `${entries(40, "notes")}\n- 2025-02-01: the staging cluster replaced the old one`, { "if-match": '"1"' });
  await indexed();
  const documents = counts.embeds.filter((e) => e.kind === "document");
  assert.deepEqual(documents.map((e) => e.n), [1], "only the new item embedded");
  const after = vectorKeys(storageOf("revisions"));
  assert.equal(new Set(after.map((k) => k.split("/").slice(0, 5).join("/"))).size, 1, `one record: ${after.join(" ")}`);
  assert.ok(after.every((k) => !before.includes(k)), "the earlier record deleted");
  const recalled = await call("GET", "/v1/teams/revisions/recall?q=staging%20cluster", key);
  assert.equal(recalled.semantic.degraded, null);
  assert.match(recalled.selected[0].text, /staging cluster/);
});

test("the earlier layout's per-item vectors are deleted by the sweep, a page at a time, and the lag is reported until the memory is indexed again", async () => {
  const { call, counts, indexed, storageOf } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "migrating" });
  await call("PUT", "/v1/teams/migrating/memories/team/notes", key, entries(12, "notes"), { "if-match": '"0"' });
  await indexed();
  const storage = storageOf("migrating");
  // As an earlier hub left it: one entry per item, no record.
  for (const k of vectorKeys(storage)) storage.map.delete(k);
  // More than two pages of them (the memory's 12 items and entries of texts gone since).
  const earlier = 2 * LAYOUT_PAGE + 24;
  for (let i = 0; i < earlier; i += 1) storage.map.set(`vectors/static-model:${i.toString(16).padStart(16, "0")}:40`, new Uint8Array(16));
  assert.equal((await call("GET", "/v1/teams/migrating/stats", key)).indexLag, 12);
  const lagging = await call("GET", "/v1/teams/migrating/recall?q=release%20checks", key);
  assert.deepEqual([lagging.semantic.degraded, lagging.semantic.lag], ["index/lagging", 12]);
  await call("POST", "/v1/teams/migrating/sweep", key, {});
  assert.equal(vectorKeys(storage).filter((k) => k.split("/").length === 2).length, 0, "the per-item entries deleted");
  await indexed();
  const late = await call("GET", "/v1/teams/migrating/recall?q=release%20checks", key);
  assert.equal(late.semantic.degraded, null, JSON.stringify(late.semantic));
  assert.equal((await call("GET", "/v1/teams/migrating/stats", key)).indexLag, 0);
  // Three pages, none longer than LAYOUT_PAGE; once deleted, a sweep no longer lists the namespace: it reads the team's mark alone.
  assert.deepEqual(counts.namespaceLimits, [LAYOUT_PAGE, LAYOUT_PAGE, LAYOUT_PAGE]);
  const reads = counts.vectorReads;
  await call("POST", "/v1/teams/migrating/sweep", key, {});
  assert.deepEqual([counts.namespaceLists, counts.vectorReads - reads], [3, 1], "a later sweep reads only the mark");
});

test("a purge leaves no vectors of the memory", async () => {
  const { call, indexed, storageOf } = hubWithCounts();
  const { key } = await call("POST", "/v1/teams", operator, { team: "purging" });
  await call("PUT", "/v1/teams/purging/memories/team/gone", key, entries(30, "gone"), { "if-match": '"0"' });
  await call("PUT", "/v1/teams/purging/memories/team/kept", key, entries(5, "kept"), { "if-match": '"0"' });
  await indexed();
  assert.ok(vectorKeys(storageOf("purging")).some((k) => k.startsWith("vectors/team/gone/")));
  await call("DELETE", "/v1/teams/purging/memories/team/gone?purge=true", key, undefined, { "if-match": '"1"' });
  const left = vectorKeys(storageOf("purging"));
  assert.equal(left.filter((k) => k.startsWith("vectors/team/gone/")).length, 0, left.join(" "));
  assert.ok(left.some((k) => k.startsWith("vectors/team/kept/")), "another memory's kept");
});

test("a save of a memory being indexed answers without waiting for the embedding; the older text's vectors are never written", { timeout: 30_000 }, async () => {
  const gate = embeddingGate();
  const { call, counts, indexed, storageOf } = hubWithCounts(gate.held);
  const { key } = await call("POST", "/v1/teams", operator, { team: "saving" });
  gate.close();
  counts.embeds.length = 0;
  await call("PUT", "/v1/teams/saving/memories/team/notes", key, entries(20, "notes"), { "if-match": '"0"' });
  await embedding(counts);
  // The indexing of revision 1 is held in its embedding: the save answers all the same (were it waiting, this test would time out).
  const saved = await call("PUT", "/v1/teams/saving/memories/team/notes", key, entries(21, "notes"), { "if-match": '"1"' });
  assert.equal(saved.revision, 2);
  assert.equal(counts.embeds.filter((e) => e.kind === "document").length, 1, "the embedding still held");
  gate.open();
  await indexed();
  const chunks = vectorKeys(storageOf("saving"));
  assert.equal(new Set(chunks.map((k) => k.split("/").slice(0, 5).join("/"))).size, 1, `one record: ${chunks.join(" ")}`);
  // Revision 1's record was never written (its text was no longer the head): revision 2 reused nothing of it.
  const documents = counts.embeds.filter((e) => e.kind === "document");
  assert.equal(documents.reduce((n, e) => n + e.n, 0), 20 + 21, JSON.stringify(documents));
  const recalled = await call("GET", "/v1/teams/saving/recall?q=release%20checks", key);
  assert.equal(recalled.semantic.degraded, null, JSON.stringify(recalled.semantic));
});

test("a purge of a memory being indexed answers without waiting, and its indexing writes no vectors after it", { timeout: 30_000 }, async () => {
  const gate = embeddingGate();
  const { call, counts, indexed, storageOf } = hubWithCounts(gate.held);
  const { key } = await call("POST", "/v1/teams", operator, { team: "purged-while-indexed" });
  gate.close();
  await call("PUT", "/v1/teams/purged-while-indexed/memories/team/gone", key, entries(20, "gone"), { "if-match": '"0"' });
  await embedding(counts);
  await call("DELETE", "/v1/teams/purged-while-indexed/memories/team/gone?purge=true", key, undefined, { "if-match": '"1"' });
  gate.open();
  await indexed();
  assert.deepEqual(vectorKeys(storageOf("purged-while-indexed")), []);
});

test("an edited memory keeps its indexed items' vectors until re-indexed: only the new item lags", { timeout: 30_000 }, async () => {
  const gate = embeddingGate();
  const { call, counts, indexed } = hubWithCounts(gate.held);
  const { key } = await call("POST", "/v1/teams", operator, { team: "edited" });
  await call("PUT", "/v1/teams/edited/memories/team/notes", key, entries(12, "notes"), { "if-match": '"0"' });
  await indexed();
  gate.close();
  await call("PUT", "/v1/teams/edited/memories/team/notes", key, `${entries(12, "notes")}\n- 2025-02-01: the staging cluster replaced the old one`, { "if-match": '"1"' });
  // Its indexing held in the embedding of the new item (the first indexing's call was the one before).
  await embedding(counts, 2);
  Object.assign(counts, { vectorReads: 0 });
  const lagging = await call("GET", "/v1/teams/edited/memories/team/notes/recall?q=release%20checks", key);
  assert.deepEqual([lagging.semantic.degraded, lagging.semantic.lag], ["index/lagging", 1], JSON.stringify(lagging.semantic));
  assert.equal(counts.vectorReads, 1, "the memory's records in one storage read");
  assert.equal((await call("GET", "/v1/teams/edited/stats", key)).indexLag, 1);
  gate.open();
  await indexed();
  const indexedNow = await call("GET", "/v1/teams/edited/memories/team/notes/recall?q=release%20checks", key);
  assert.equal(indexedNow.semantic.degraded, null, JSON.stringify(indexedNow.semantic));
  assert.equal((await call("GET", "/v1/teams/edited/stats", key)).indexLag, 0);
});
