// Recall by meaning on the hub (docs/HUB.md, "Recall by meaning"), on the
// targets started for real: the Deno hub with MiniLM (its default) and with
// the static table, the Worker built with the static table, and
// both targets with MEMDOC_HUB_EMBEDDER=openai pointed at a /v1/embeddings
// server started here, which embeds with the real MiniLM in Node and
// counts the texts it is given. An agent that writes and at once asks in
// other words gets its entry; a save only embeds its new items; stats'
// indexLag counts what is not embedded yet; a failing embedder is said.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { miniLmEmbedder } from "memdoc/embedders/minilm";

import { startDeno, startWorkerd } from "../run.mjs";
import { client, until } from "./client.mjs";
import { callTool, mcpClient } from "./mcp-client.mjs";

const operator = randomBytes(24).toString("base64url");
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-meaning-"));
after(() => rmSync(work, { recursive: true, force: true }));

const MEMORY = [
  "## Architecture",
  "- Services use PostgreSQL 16",
  "- The frontend is a React single-page app",
  "## Process",
  "- Production releases only ship on Tuesdays and Thursdays",
  "- Every change needs one approving review",
].join("\n");
const QUESTION = "which relational database do we run?";

/** A /v1/embeddings server over the real MiniLM; `texts` counts what it embedded, `failing` makes it answer 503. */
async function embeddingServer() {
  const model = await miniLmEmbedder();
  const state = { texts: [], failing: false, auth: [], gate: null, passes: () => false };
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    state.auth.push(req.headers.authorization);
    if (state.failing || req.url !== "/v1/embeddings") {
      res.writeHead(state.failing ? 503 : 404).end("unavailable");
      return;
    }
    const { input, model: name } = JSON.parse(body);
    // Held while a test keeps the gate closed (but for the texts it lets pass).
    if (!state.passes(input)) await state.gate;
    state.texts.push(...input);
    const vectors = await model.embed(input, "document");
    // In reverse order: the client sorts by index.
    const data = vectors.map((v, index) => ({ index, embedding: Array.from(v) })).reverse();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data, model: name }));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { model: model.id, url: `http://127.0.0.1:${server.address().port}/v1`, state, close: () => new Promise((r) => server.close(r)) };
}

const embeddings = await embeddingServer();
after(() => embeddings.close());
const openai = { MEMDOC_HUB_EMBEDDER: "openai", MEMDOC_HUB_OPENAI_URL: embeddings.url, MEMDOC_HUB_OPENAI_MODEL: embeddings.model, MEMDOC_HUB_OPENAI_KEY: "sk-test-key" };

// A stand-in for the Workers AI binding (workerd has no local Workers AI):
// `env.AI.run(model, { text })` asks the embeddings server above.
const AI_STANDIN = `export default function (env) {
  return {
    async run(model, input) {
      const response = await fetch(env.URL + "/embeddings", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, input: input.text }) });
      if (!response.ok) throw new Error("Workers AI: " + response.status);
      const { data } = await response.json();
      return { shape: [data.length, data[0].embedding.length], data: data.sort((a, b) => a.index - b.index).map((d) => d.embedding) };
    },
  };
}`;

const STATIC = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_EMBEDDER: "static" };
const targets = {
  "Deno with MiniLM": () => startDeno({ kvPath: join(work, "deno-minilm"), vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_EMBEDDER: "minilm" } }),
  "Deno with static": () => startDeno({ kvPath: join(work, "deno-static"), vars: STATIC }),
  // The Worker built with the static table (wrangler.toml, env.static).
  "workerd with static": () => startWorkerd({ build: join(work, "workerd-build-static"), persist: false, vars: STATIC }),
  "Deno with openai": () => startDeno({ kvPath: join(work, "deno-openai"), vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator, ...openai } }),
  "workerd with openai": () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator, ...openai } }),
  // No MEMDOC_HUB_EMBEDDER: an AI binding makes workers-ai the default.
  "workerd with workers-ai": () =>
    startWorkerd({
      build: join(work, "workerd-build-ai"),
      persist: false,
      vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator },
      workers: [{ name: "ai-standin", modules: true, script: AI_STANDIN }],
      wrappedBindings: { AI: { scriptName: "ai-standin", bindings: { URL: embeddings.url } } },
    }),
};

for (const [name, start] of Object.entries(targets)) {
  describe(`recall by meaning on ${name}`, { concurrency: false }, () => {
    const viaServer = name.endsWith("openai");
    const workersAi = name.endsWith("workers-ai");
    // The embedder the hub itself runs, by the id its recall names.
    const model = { MiniLM: "all-MiniLM-L6-v2", static: "all-MiniLM-L6-v2-static-256-v2" }[name.split(" ").at(-1)];
    let hub;
    let call;
    let t;
    before(async () => {
      hub = await start();
      call = client(hub.url);
      const team = `meaning-${name.split(" ")[0].toLowerCase()}-${viaServer ? "o" : workersAi ? "w" : model.includes("-static-") ? "s" : "m"}`;
      const made = await call("POST", "/v1/teams", { key: operator, body: { team, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const key = async (member, role) => (await call("POST", `/v1/teams/${team}/keys`, { key: made.json.key, body: { member, role } })).json.key;
      t = { team, admin: made.json.key, writer: await key("alice", "writer"), reader: await key("bob", "reader") };
    });
    after(() => hub?.stop());

    test("an agent that writes and asks in other words once the hub indexed it gets its entry", async () => {
      const path = `/v1/teams/${t.team}/memories/team/stack`;
      const saved = await call("PUT", path, { key: t.writer, body: MEMORY, headers: { "if-match": '"0"' } });
      assert.equal(saved.status, 200, saved.text);
      await until("the index to catch up", async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag === 0);
      const r = await call("GET", `${path}/recall?q=${encodeURIComponent(QUESTION)}&budget=400`, { key: t.reader });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.semantic.degraded, null, r.text);
      if (workersAi) {
        // Through the binding, as bge-small (the stand-in's vectors are MiniLM's, so its calibration is not theirs: the model and the calls are what is checked).
        assert.equal(r.json.semantic.model, "@cf/baai/bge-small-en-v1.5");
        assert.ok(embeddings.state.texts.includes(`Represent this sentence for searching relevant passages: ${QUESTION}`));
        assert.ok(embeddings.state.texts.includes("- Services use PostgreSQL 16"));
        return;
      }
      assert.match(r.json.selected[0].text, /PostgreSQL 16/, r.text);
      if (model) assert.equal(r.json.semantic.model, model);
      // By words alone the question shares nothing with the entry.
      const lexical = await call("GET", `${path}/recall?q=${encodeURIComponent(QUESTION)}&budget=400&mode=lexical`, { key: t.reader });
      assert.equal(lexical.json.semantic, undefined);
      assert.ok(!lexical.json.selected.some((item) => /PostgreSQL/.test(item.text)), lexical.text);
      const bad = await call("GET", `${path}/recall?q=x&mode=vectors`, { key: t.reader });
      assert.equal(bad.status, 400);
    });

    test("stats' indexLag counts the items not embedded yet, and a save embeds only its new items", async () => {
      const path = `/v1/teams/${t.team}/memories/team/stack`;
      const lag = async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag;
      assert.equal(await until("the index to catch up", async () => (await lag()) === 0), true);
      const before = embeddings.state.texts.length;
      const current = (await call("GET", path, { key: t.reader })).headers.get("etag");
      const saved = await call("PUT", path, { key: t.writer, body: `${MEMORY}\n- The weekly team sync is on Monday at 10:00`, headers: { "if-match": current } });
      assert.equal(saved.status, 200, saved.text);
      await until("the new item to be embedded", async () => (await lag()) === 0);
      if (viaServer) {
        // The one new item, nothing else; with the key of the settings.
        assert.deepEqual(embeddings.state.texts.slice(before), ["- The weekly team sync is on Monday at 10:00"]);
        assert.ok(embeddings.state.auth.every((a) => a === "Bearer sk-test-key"));
        const asked = embeddings.state.texts.length;
        const r = await call("GET", `${path}/recall?q=${encodeURIComponent("when is the recurring team meeting?")}&budget=200`, { key: t.reader });
        const best = r.json.selected.reduce((a, b) => (b.why.relevance > a.why.relevance ? b : a));
        assert.match(best.text, /weekly team sync/, r.text);
        // The recall embedded its question alone: the items came from the team's vectors.
        assert.deepEqual(embeddings.state.texts.slice(asked), ["when is the recurring team meeting?"]);
      }
    });

    if (viaServer) {
      test("a team recall embeds its question once, however many memories it recalls", async () => {
        for (const id of ["one", "two", "three"]) {
          const saved = await call("PUT", `/v1/teams/${t.team}/memories/team/${id}`, { key: t.writer, body: `## Notes\n- Memory ${id} is about the ${id} service`, headers: { "if-match": '"0"' } });
          assert.equal(saved.status, 200, saved.text);
        }
        await until("the index to catch up", async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag === 0);
        const asked = embeddings.state.texts.length;
        const question = "which service runs the payments?";
        const r = await call("GET", `/v1/teams/${t.team}/recall?q=${encodeURIComponent(question)}`, { key: t.reader });
        assert.equal(r.status, 200, r.text);
        assert.ok(r.json.totals.memories >= 3, r.text);
        assert.deepEqual(embeddings.state.texts.slice(asked), [question]);
      });

      test("an edited memory is recalled by meaning with its indexed items while its new item lags", { timeout: 60_000 }, async () => {
        const lag = async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag;
        const path = `/v1/teams/${t.team}/memories/team/edited`;
        assert.equal((await call("PUT", path, { key: t.writer, body: MEMORY, headers: { "if-match": '"0"' } })).status, 200);
        await until("the index to catch up", async () => (await lag()) === 0);
        let open;
        embeddings.state.gate = new Promise((resolve) => (open = resolve));
        // The question passes: the new item's indexing is held.
        embeddings.state.passes = (input) => input.every((text) => text === QUESTION);
        try {
          const edited = await call("PUT", path, { key: t.writer, body: `${MEMORY}\n- Deploys are frozen in the last week of December`, headers: { "if-match": '"1"' } });
          assert.equal(edited.status, 200, edited.text);
          const r = await call("GET", `${path}/recall?q=${encodeURIComponent(QUESTION)}&budget=400`, { key: t.reader });
          assert.equal(r.status, 200, r.text);
          assert.deepEqual([r.json.semantic.degraded, r.json.semantic.lag], ["index/lagging", 1], r.text);
          // By meaning: the question shares no word with it (the first test's lexical recall).
          assert.match(r.json.selected[0].text, /PostgreSQL 16/, r.text);
          assert.equal(await lag(), 1);
        } finally {
          embeddings.state.passes = () => false;
          embeddings.state.gate = null;
          open();
        }
        await until("the new revision to be indexed", async () => (await lag()) === 0);
        const late = await call("GET", `${path}/recall?q=${encodeURIComponent(QUESTION)}&budget=400`, { key: t.reader });
        assert.equal(late.json.semantic.degraded, null, late.text);
      });

      test("a memory larger than one storage value is indexed into one record and recalled by meaning; a purge deletes its vectors", { timeout: 120_000 }, async () => {
        const lag = async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag;
        const path = `/v1/teams/${t.team}/memories/team/large`;
        const body = `## Notes\n${Array.from({ length: 200 }, (_, i) => `- Note ${i}: the ${["billing", "search", "login", "export"][i % 4]} service changed in sprint ${i}`).join("\n")}\n- Services use PostgreSQL 16`;
        const asked = embeddings.state.texts.length;
        assert.equal((await call("PUT", path, { key: t.writer, body, headers: { "if-match": '"0"' } })).status, 200);
        await until("the index to catch up", async () => (await lag()) === 0, 60_000);
        assert.equal(embeddings.state.texts.length - asked, 201, "every item embedded once");
        const r = await call("GET", `${path}/recall?q=${encodeURIComponent(QUESTION)}&budget=200`, { key: t.reader });
        assert.equal(r.json.semantic.degraded, null, r.text.slice(0, 500));
        assert.ok(r.json.selected.some((item) => /PostgreSQL 16/.test(item.text)), r.text.slice(0, 500));
        // Purged and saved again with the same text: embedded anew, no vector of it was left.
        assert.equal((await call("DELETE", `${path}?purge=true`, { key: t.admin, headers: { "if-match": '"1"' } })).status, 204);
        const again = embeddings.state.texts.length;
        assert.equal((await call("PUT", path, { key: t.writer, body, headers: { "if-match": '"0"' } })).status, 200);
        await until("the index to catch up", async () => (await lag()) === 0, 60_000);
        assert.equal(embeddings.state.texts.length - again, 201, "the purge left no vectors to reuse");
      });

      test("indexing waits in a bounded queue per team: past 100 memories a save's indexing is left to the next recall, and indexLag says so", { timeout: 120_000 }, async () => {
        const lag = async () => (await call("GET", `/v1/teams/${t.team}/stats`, { key: t.admin })).json.indexLag;
        await until("the index to catch up", async () => (await lag()) === 0);
        let open;
        embeddings.state.gate = new Promise((resolve) => (open = resolve));
        const put = async (id, body) => {
          const saved = await call("PUT", `/v1/teams/${t.team}/memories/team/${id}`, { key: t.writer, body, headers: { "if-match": '"0"' } });
          assert.equal(saved.status, 200, saved.text);
        };
        try {
          // The first memory's indexing leaves the queue at once and is held at the embedder; of the next 105, 100 wait in the queue.
          await put("queued-first", "## Notes\n- The queue starts with this entry");
          for (let i = 0; i < 105; i += 1) await put(`queued-${String(i).padStart(3, "0")}`, `## Notes\n- Queued entry number ${i} of the batch`);
        } finally {
          embeddings.state.gate = null;
          open();
        }
        await until("the queue to drain", async () => (await lag()) === 5);
        // Nothing more comes: the five left out wait for a save or a recall.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal(await lag(), 5);
        const r = await call("GET", `/v1/teams/${t.team}/memories/team/queued-104/recall?q=${encodeURIComponent("which entry is last in the batch?")}`, { key: t.reader });
        assert.deepEqual([r.json.semantic.degraded, r.json.semantic.lag], ["index/lagging", 1], r.text);
        await until("the recall's memory to be indexed", async () => (await lag()) === 4);
      });

      test("a recall never embeds a memory's items on the spot: it answers with what is indexed and says index/lagging with the lag", { timeout: 60_000 }, async () => {
        let open;
        embeddings.state.gate = new Promise((resolve) => (open = resolve));
        // The question passes: the items are held.
        embeddings.state.passes = (input) => input.every((text) => text === "invoices");
        try {
          const path = `/v1/teams/${t.team}/memories/team/unindexed`;
          const saved = await call("PUT", path, { key: t.writer, body: "## Notes\n- Invoices are archived after seven years\n- Refunds need a manager's approval", headers: { "if-match": '"0"' } });
          assert.equal(saved.status, 200, saved.text);
          // The embedder holds every call, the indexing's too: a recall that embedded the items would wait for it.
          const single = await call("GET", `${path}/recall?q=invoices`, { key: t.reader });
          assert.equal(single.status, 200, single.text);
          assert.deepEqual([single.json.semantic.degraded, single.json.semantic.lag], ["index/lagging", 2], single.text);
          assert.match(single.json.selected[0].text, /Invoices/, "by words meanwhile");
          // Across the team: the caller's own memory comes first, within the cap on memories.
          const own = await call("PUT", `/v1/teams/${t.team}/memories/user/alice`, { key: t.writer, body: "## Notes\n- My invoices go to the shared mailbox", headers: { "if-match": '"0"' } });
          assert.equal(own.status, 200, own.text);
          const team = await call("GET", `/v1/teams/${t.team}/recall?q=invoices`, { key: t.writer });
          assert.equal(team.status, 200, team.text);
          assert.equal(team.json.semantic.degraded, "index/lagging", team.text.slice(0, 500));
          assert.ok(team.json.semantic.lag >= 1, team.text.slice(0, 500));
        } finally {
          embeddings.state.passes = () => false;
          embeddings.state.gate = null;
          open();
        }
      });

      test("a failing embedder is said: the recall is by words and names embedder/unavailable", async () => {
        embeddings.state.failing = true;
        try {
          const path = `/v1/teams/${t.team}/memories/team/stack`;
          const r = await call("GET", `${path}/recall?q=${encodeURIComponent("PostgreSQL")}`, { key: t.reader });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.semantic.degraded, "embedder/unavailable");
          assert.match(r.json.selected[0].text, /PostgreSQL 16/);
          // A save is not held up by it.
          const current = (await call("GET", path, { key: t.reader })).headers.get("etag");
          const saved = await call("PUT", path, { key: t.writer, body: `${MEMORY}\n- Staging mirrors production nightly`, headers: { "if-match": current } });
          assert.equal(saved.status, 200, saved.text);
        } finally {
          embeddings.state.failing = false;
        }
      });
    }
  });
}

describe("recall across a team on Deno with MiniLM", { concurrency: false }, () => {
  let hub;
  let call;
  const keys = {};
  before(async () => {
    hub = await startDeno({ kvPath: join(work, "deno-team"), vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_EMBEDDER: "minilm" } });
    call = client(hub.url);
    for (const team of ["across", "elsewhere"]) {
      const made = await call("POST", "/v1/teams", { key: operator, body: { team, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      keys[team] = made.json.key;
    }
    const key = async (member) => (await call("POST", "/v1/teams/across/keys", { key: keys.across, body: { member, role: "writer" } })).json.key;
    keys.alice = await key("alice");
    keys.bob = await key("bob");
    const put = async (k, path, body) => assert.equal((await call("PUT", path, { key: k, body, headers: { "if-match": '"0"' } })).status, 200);
    await put(keys.alice, "/v1/teams/across/memories/team/stack", MEMORY);
    await put(keys.alice, "/v1/teams/across/memories/user/alice", "## Preferences\n- I prefer MySQL 8 for my side projects");
    await put(keys.bob, "/v1/teams/across/memories/user/bob", "## Preferences\n- Bob's secret: the staging database is MariaDB");
    await put(keys.elsewhere, "/v1/teams/elsewhere/memories/team/stack", "## Architecture\n- Services use Oracle Database 23");
    await until("the index to catch up", async () => (await call("GET", "/v1/teams/across/stats", { key: keys.across })).json.indexLag === 0);
  });
  after(() => hub?.stop());

  test("the team's memories and the caller's own, within one budget, each item naming its memory; never another member's, nor another team's", async () => {
    const r = await call("GET", `/v1/teams/across/recall?q=${encodeURIComponent(QUESTION)}&budget=300`, { key: keys.alice });
    assert.equal(r.status, 200, r.text);
    const all = [...r.json.selected, ...r.json.omitted];
    const named = new Set(all.map((item) => `${item.memory.scope}/${item.memory.id}`));
    assert.deepEqual([...named].sort(), ["team/stack", "user/alice"]);
    assert.ok(!all.some((item) => /MariaDB|Oracle/.test(item.text)), r.text);
    assert.ok(r.json.selected.some((item) => /PostgreSQL 16/.test(item.text) && item.memory.id === "stack"), r.text);
    assert.ok(r.json.chars <= 300);
    assert.equal(r.json.totals.memories, 2);
    assert.equal(r.json.semantic.degraded, null);
    // Another team's key on this team's path: 404, as for anything it may not see.
    assert.equal((await call("GET", `/v1/teams/across/recall?q=database`, { key: keys.elsewhere })).status, 404);
  });

  test("MCP memory_recall without scope and id recalls across the same memories", async () => {
    const mcp = await mcpClient(hub.url, keys.alice);
    try {
      const r = await callTool(mcp, "memory_recall", { query: QUESTION, budget: 300 });
      assert.equal(r.isError, undefined, r.text);
      assert.match(r.text, /\[team\/stack · Architecture\] Services use PostgreSQL 16/);
      assert.doesNotMatch(r.text, /MariaDB|Oracle/);
      const half = await callTool(mcp, "memory_recall", { query: QUESTION, scope: "team" });
      assert.equal(half.isError, true);
      assert.equal(half.code, "request/invalid-arguments");
    } finally {
      await mcp.close();
    }
  });
});

describe("an embedder a target cannot run stops its start, naming the setting", () => {
  test("MiniLM on the Worker, static on a Worker built without its table, openai without its URL", async () => {
    await assert.rejects(startWorkerd({ build: join(work, "workerd-refused"), persist: false, vars: { MEMDOC_HUB_EMBEDDER: "minilm" } }), /MEMDOC_HUB_EMBEDDER=minilm does not run on Workers/);
    await assert.rejects(startWorkerd({ build: join(work, "workerd-refused"), persist: false, vars: { MEMDOC_HUB_EMBEDDER: "workers-ai" } }), /needs an AI binding/);
    await assert.rejects(
      startWorkerd({ build: join(work, "workerd-refused"), persist: false, vars: { MEMDOC_HUB_EMBEDDER: "static" }, withStatic: false }),
      /MEMDOC_HUB_EMBEDDER=static needs the static table in the Workers hub: .*wrangler deploy --env static/,
    );
    await assert.rejects(startDeno({ kvPath: join(work, "deno-refused"), vars: { MEMDOC_HUB_EMBEDDER: "bert" } }), /MEMDOC_HUB_EMBEDDER must be one of minilm, static, e5, workers-ai, openai, none/);
    await assert.rejects(startDeno({ kvPath: join(work, "deno-refused"), vars: { MEMDOC_HUB_EMBEDDER: "openai", MEMDOC_HUB_OPENAI_MODEL: "m" } }), /needs MEMDOC_HUB_OPENAI_URL/);
  });
});
