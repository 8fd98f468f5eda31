// What the hub offers agents and the editor, against both targets started
// for real on 127.0.0.1 (the Worker in workerd, the Deno server): the MCP
// endpoint with the official MCP client (Client + Streamable HTTP client
// transport) and, on workerd, the MCP Inspector CLI; GET /v1/whoami; and
// the list of memories a key can open.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";

import * as memdoc from "memdoc";

import { root, startDeno, startWorkerd } from "../run.mjs";
import { client } from "./client.mjs";
import { callTool, mcpClient } from "./mcp-client.mjs";
import { usedContent } from "./used.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "600" };
const work = mkdtempSync(join(tmpdir(), "memdoc-mcp-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: work, vars }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
const DOC = "## Decisions\n- 2025-03-15: Ship on Fridays\n\n## Facts\n- 2025-03-10: The API lives at api.example.com";
const TOOLS = ["memory_append", "memory_history", "memory_read", "memory_recall", "memory_save"];

for (const [target, start] of Object.entries(targets)) {
  describe(`MCP on the hub in ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let team;
    let keys;
    let alice;
    before(async () => {
      hub = await start();
      call = client(hub.url);
      team = `mcp-${target}`;
      const made = await call("POST", "/v1/teams", { key: operator, body: { team, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const key = async (member, role) => (await call("POST", `/v1/teams/${team}/keys`, { key: made.json.key, body: { member, role } })).json.key;
      keys = { admin: made.json.key, alice: await key("alice", "writer"), bob: await key("bob", "writer"), rita: await key("rita", "reader") };
      alice = await mcpClient(hub.url, keys.alice);
    });
    after(async () => {
      await alice?.close();
      await hub?.stop();
    });

    test("lists the five memory tools, each with a description and a JSON schema", async () => {
      const { tools } = await alice.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
      for (const tool of tools) {
        assert.ok(tool.description.length > 80, `${tool.name} is described for a model`);
        assert.equal(tool.inputSchema.type, "object");
        assert.deepEqual(tool.inputSchema.properties.scope.enum, ["team", "user", "task"]);
        // memory_recall without scope and id recalls across every memory the key can read.
        if (tool.name === "memory_recall") assert.deepEqual(tool.inputSchema.required, ["query"]);
        else assert.ok(tool.inputSchema.required.includes("id"));
      }
      const save = tools.find((t) => t.name === "memory_save");
      // The save tool carries the rewrite prompt's rules, from the engine.
      assert.ok(save.description.includes(memdoc.writingRules({ scope: "team" })), save.description);
      assert.deepEqual(save.inputSchema.required.sort(), ["baseRevision", "content", "id", "scope"]);
    });

    test("read, save and read again; the actor is the key's member", async () => {
      const empty = await callTool(alice, "memory_read", { scope: "team", id: "product" });
      assert.equal(empty.isError, undefined, empty.text);
      assert.equal(empty.structuredContent.revision, 0);
      const saved = await callTool(alice, "memory_save", { scope: "team", id: "product", content: DOC, baseRevision: 0 });
      assert.equal(saved.isError, undefined, saved.text);
      assert.equal(saved.structuredContent.revision, 1);
      assert.match(saved.text, /Saved revision 1/);
      const read = await callTool(alice, "memory_read", { scope: "team", id: "product" });
      assert.equal(read.structuredContent.revision, 1);
      assert.equal(read.structuredContent.content, DOC);
      assert.match(read.text, /<team_memory chars="\d+"/);
      assert.match(read.text, /Ship on Fridays/);
      assert.equal(read.structuredContent.usage.chars, [...DOC].length);
      const rest = await call("GET", m(team, "team", "product"), { key: keys.bob });
      assert.equal(rest.json.revision, 1);
      assert.equal(rest.json.updatedBy, "alice");
      // The tool's REST calls are in the audit log, as the key's member.
      const audit = await call("GET", `/v1/teams/${team}/audit?limit=20`, { key: keys.admin });
      const save = audit.json.entries.find((e) => e.action === "save" && e.target === "team/product");
      assert.deepEqual([save.member, save.revision, save.status], ["alice", 1, 200]);
    });

    test("a rejected save, a stale save and an erase are tool errors that change nothing", async () => {
      const personal = await callTool(alice, "memory_save", { scope: "team", id: "product", content: `${DOC}\n\n## Preferences\n- 2025-03-16: I like tea`, baseRevision: 1 });
      assert.equal(personal.isError, true);
      assert.equal(personal.code, "save/rejected");
      assert.ok(personal.structuredContent.diagnostics.some((d) => d.severity === "error"), personal.text);
      assert.match(personal.text, /Fix these and save again/);
      assert.match(personal.text, /YYYY-MM-DD/);

      const erase = await callTool(alice, "memory_save", { scope: "team", id: "product", content: "", baseRevision: 1 });
      assert.equal(erase.isError, true);
      assert.equal(erase.code, "save/rejected");
      assert.match(erase.text, /erase/);

      await callTool(alice, "memory_save", { scope: "team", id: "product", content: `${DOC}\n- 2025-03-17: Bob's line`, baseRevision: 1 });
      const stale = await callTool(alice, "memory_save", { scope: "team", id: "product", content: `${DOC}\n- 2025-03-18: A late line`, baseRevision: 1 });
      assert.equal(stale.isError, true);
      assert.equal(stale.code, "http/precondition-failed");
      assert.equal(stale.structuredContent.currentRevision, 2);
      assert.match(stale.text, /baseRevision 2/);

      const now = await call("GET", m(team, "team", "product"), { key: keys.bob });
      assert.equal(now.json.revision, 2);
      assert.doesNotMatch(now.json.content, /tea|late line/);
    });

    test("recall answers the relevant part, with why, through the REST recall route", async () => {
      const recalled = await callTool(alice, "memory_recall", { scope: "team", id: "product", query: "where is the API", budget: 200 });
      assert.equal(recalled.isError, undefined, recalled.text);
      assert.match(recalled.structuredContent.content, /api\.example\.com/);
      assert.ok(recalled.structuredContent.chars <= 200);
      assert.equal(recalled.structuredContent.revision, 2);
      assert.ok(recalled.structuredContent.selected.some((item) => item.why.terms.includes("api")), recalled.text);
    });

    test("history lists the revisions, newest first, with their members", async () => {
      const history = await callTool(alice, "memory_history", { scope: "team", id: "product" });
      assert.equal(history.isError, undefined, history.text);
      assert.deepEqual(history.structuredContent.entries.map((e) => e.revision), [2, 1]);
      assert.deepEqual(history.structuredContent.entries.map((e) => e.actor), ["alice", "alice"]);
      assert.match(history.text, /revision 2 .* by alice/);
    });

    test("GET /v1/whoami says who a key is, and nothing for a bad key", async () => {
      const me = await call("GET", "/v1/whoami", { key: keys.rita });
      assert.equal(me.status, 200);
      assert.deepEqual({ ...me.json, keyId: typeof me.json.keyId }, { team, member: "rita", role: "reader", keyId: "string" });
      assert.equal((await call("GET", "/v1/whoami")).json.code, "auth/missing-key");
      assert.equal((await call("GET", "/v1/whoami", { key: "mdk.nope" })).json.code, "auth/invalid-key");
    });

    test("a refused key: missing or unknown keys get 401; a reader may not save", async () => {
      await assert.rejects(mcpClient(hub.url, `mdk.${team}.0123456789abcdef.${"A".repeat(43)}`), /401|invalid-key|Unauthorized/i);
      const bare = await fetch(`${hub.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
      assert.equal(bare.status, 401);
      assert.equal((await bare.json()).code, "auth/missing-key");
      const rita = await mcpClient(hub.url, keys.rita);
      try {
        const read = await callTool(rita, "memory_read", { scope: "team", id: "product" });
        assert.equal(read.structuredContent.revision, 2);
        const save = await callTool(rita, "memory_save", { scope: "team", id: "product", content: DOC, baseRevision: 2 });
        assert.equal(save.isError, true);
        assert.equal(save.code, "auth/forbidden");
      } finally {
        await rita.close();
      }
      assert.equal((await call("GET", m(team, "team", "product"), { key: keys.bob })).json.revision, 2);
    });

    test("user memories: only the member's own; another member's id is like no memory at all", async () => {
      const own = await callTool(alice, "memory_save", { scope: "user", id: "alice", content: "## Preferences\n- 2025-03-16: Tea, not coffee", baseRevision: 0 });
      assert.equal(own.isError, undefined, own.text);
      const bob = await mcpClient(hub.url, keys.bob);
      try {
        for (const [tool, args] of [
          ["memory_read", {}],
          ["memory_history", {}],
          ["memory_recall", { query: "tea" }],
          ["memory_save", { content: "## Preferences\n- 2025-03-16: Coffee", baseRevision: 1 }],
        ]) {
          const r = await callTool(bob, tool, { scope: "user", id: "alice", ...args });
          assert.equal(r.isError, true, `${tool}: ${r.text}`);
          assert.equal(r.code, "memory/not-found", `${tool}: ${r.text}`);
          assert.doesNotMatch(r.text, /Tea/);
        }
      } finally {
        await bob.close();
      }
      const still = await call("GET", m(team, "user", "alice"), { key: keys.alice });
      assert.equal(still.json.revision, 1);
      assert.match(still.json.content, /Tea, not coffee/);
    });

    test("the memories a key can open: the team's, and only the member's own user memory", async () => {
      const list = async (key) => {
        const r = await call("GET", `/v1/teams/${team}/memories`, { key });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.truncated, false);
        return r.json.memories.map((x) => `${x.scope}/${x.id}`).sort();
      };
      assert.deepEqual(await list(keys.alice), ["team/product", "user/alice"]);
      assert.deepEqual(await list(keys.rita), ["team/product"], "a reader lists; rita has no user memory yet");
      const bobs = await call("PUT", m(team, "user", "bob"), { key: keys.bob, body: "## Preferences\n- 2025-03-16: Coffee", headers: { "if-match": '"0"' } });
      assert.equal(bobs.status, 200, bobs.text);
      assert.deepEqual(await list(keys.bob), ["team/product", "user/bob"]);
      assert.deepEqual(await list(keys.alice), ["team/product", "user/alice"], "never another member's user memory");
      // A rejected save lists nothing new.
      await call("PUT", m(team, "team", "rejected"), { key: keys.bob, body: "## Preferences\n- 2025-03-16: Tea", headers: { "if-match": '"0"' } });
      assert.deepEqual(await list(keys.bob), ["team/product", "user/bob"]);
      const elsewhere = await call("GET", "/v1/teams/some-other-team/memories", { key: keys.alice });
      assert.equal(elsewhere.status, 404);
      assert.equal((await call("GET", `/v1/teams/${team}/memories`)).status, 401);
      assert.equal((await call("POST", `/v1/teams/${team}/memories`, { key: keys.alice, body: {}, documented: false })).status, 405);
    });

    test("each tool says when to use it and carries its annotations", async () => {
      const { tools } = await alice.listTools();
      const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
      assert.deepEqual(hints, {
        memory_read: { readOnlyHint: true, openWorldHint: false },
        memory_recall: { readOnlyHint: true, openWorldHint: false },
        memory_history: { readOnlyHint: true, openWorldHint: false },
        memory_save: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        memory_append: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      });
      for (const tool of tools) assert.match(tool.description, /\b(Use it|use it|Call it)\b/, `${tool.name} says when to use it`);
      const append = tools.find((t) => t.name === "memory_append");
      assert.deepEqual(append.inputSchema.required.sort(), ["id", "scope", "section", "text"]);
    });

    test("memory_append adds one entry without the document, merged with what others saved; again is a no-op", async () => {
      const today = new Date().toISOString().slice(0, 10);
      usedContent("Deploys need two approvals");
      usedContent("Use Postgres 16");
      const first = await callTool(alice, "memory_append", { scope: "team", id: "runbook", section: "Decisions", text: "Deploys need two approvals" });
      assert.equal(first.isError, undefined, first.text);
      assert.equal(first.structuredContent.revision, 1);
      assert.match(first.text, /Saved revision 1/);
      // Bob saves a whole document meanwhile, over REST.
      const bob = await call("PUT", m(team, "team", "runbook"), { key: keys.bob, body: `## Decisions\n- ${today}: Deploys need two approvals\n- 2025-03-01: Use Postgres 16\n\n## Contacts\n- 2025-03-02: On call: bob`, headers: { "if-match": '"1"' } });
      assert.equal(bob.status, 200, bob.text);
      const second = await callTool(alice, "memory_append", { scope: "team", id: "runbook", section: "## Conventions", text: "- Squash merges only" });
      assert.equal(second.isError, undefined, second.text);
      assert.equal(second.structuredContent.revision, 3);
      const now = await call("GET", m(team, "team", "runbook"), { key: keys.bob });
      assert.equal(now.json.content, `## Decisions\n- ${today}: Deploys need two approvals\n- 2025-03-01: Use Postgres 16\n\n## Contacts\n- 2025-03-02: On call: bob\n\n## Conventions\n- ${today}: Squash merges only`);
      assert.equal(now.json.updatedBy, "alice");

      const again = await callTool(alice, "memory_append", { scope: "team", id: "runbook", section: "Conventions", text: "Squash merges only" });
      assert.equal(again.isError, undefined, again.text);
      assert.equal(again.structuredContent.status, "no_op");
      assert.equal((await call("GET", m(team, "team", "runbook"), { key: keys.bob })).json.revision, 3);

      const personal = await callTool(alice, "memory_append", { scope: "team", id: "runbook", section: "Preferences", text: "Tea" });
      assert.equal(personal.isError, true);
      assert.equal(personal.code, "save/rejected");
      const twoLines = await callTool(alice, "memory_append", { scope: "team", id: "runbook", section: "Decisions", text: "One\nTwo" });
      assert.equal(twoLines.code, "request/invalid-arguments");
      const rita = await mcpClient(hub.url, keys.rita);
      try {
        const refused = await callTool(rita, "memory_append", { scope: "team", id: "runbook", section: "Decisions", text: "A reader's line" });
        assert.equal(refused.code, "auth/forbidden");
      } finally {
        await rita.close();
      }
      assert.equal((await call("GET", m(team, "team", "runbook"), { key: keys.bob })).json.revision, 3, "nothing refused was saved");
    });

    test("recall with ?trace=1 lists what was left out and why, best first", async () => {
      const one = await call("GET", `${m(team, "team", "runbook")}/recall?q=${encodeURIComponent("who is on call")}&budget=40&trace=1`, { key: keys.rita });
      assert.equal(one.status, 200, one.text);
      const { trace } = one.json;
      assert.equal(trace.items.length, one.json.omitted.length);
      const counts = {};
      for (const item of one.json.omitted) counts[item.reason] = (counts[item.reason] ?? 0) + 1;
      assert.deepEqual(trace.reasons, counts);
      assert.ok(trace.items.some((i) => i.reason === "budget" || i.reason === "no-match"), JSON.stringify(trace));
      const scores = trace.items.map((i) => i.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
      const plain = await call("GET", `${m(team, "team", "runbook")}/recall?q=x`, { key: keys.rita });
      assert.equal(plain.json.trace, undefined, "no trace unless asked");
      const across = await call("GET", `/v1/teams/${team}/recall?q=${encodeURIComponent("deploys approvals")}&budget=30&trace=true`, { key: keys.alice });
      assert.equal(across.status, 200, across.text);
      // The approvals entry matched but did not fit the budget.
      const cut = across.json.trace.items.find((i) => i.text === "Deploys need two approvals");
      assert.ok(cut && (cut.reason === "budget" || cut.reason === "too-large"), JSON.stringify(across.json.trace));
      assert.deepEqual(cut.memory, { scope: "team", id: "runbook", revision: 3 });
      assert.equal(across.json.trace.items.length, across.json.omitted.length);
    });

    test("a tool keeps every policy of the route it stands for: role, deletion, audit, bounds, the key's life", async () => {
      const path = m(team, "team", "doomed");
      const made = await callTool(alice, "memory_save", { scope: "team", id: "doomed", content: DOC, baseRevision: 0 });
      assert.equal(made.structuredContent?.revision, 1, made.text);
      const audited = async (action, member) => {
        const audit = await call("GET", `/v1/teams/${team}/audit?limit=20`, { key: keys.admin });
        return audit.json.entries.find((e) => e.target === "team/doomed" && e.action === action && e.member === member);
      };
      // A reader's write: refused as the route refuses it, and audited as the route audits it.
      const rita = await mcpClient(hub.url, keys.rita);
      try {
        for (const [tool, args] of [
          ["memory_save", { content: `${DOC}\n- 2025-03-19: A reader's line`, baseRevision: 1 }],
          ["memory_append", { section: "Decisions", text: "A reader's line" }],
        ]) {
          const r = await callTool(rita, tool, { scope: "team", id: "doomed", ...args });
          assert.equal(r.code, "auth/forbidden", `${tool}: ${r.text}`);
        }
        assert.equal((await audited("save", "rita"))?.status, 403);
      } finally {
        await rita.close();
      }
      // A deleted memory: a save is the route's 409, every read "no such memory", nothing written.
      assert.equal((await call("DELETE", path, { key: keys.admin, headers: { "if-match": '"1"' } })).status, 204);
      for (const [tool, args, code] of [
        ["memory_save", { content: `${DOC}\n- 2025-03-19: After the delete`, baseRevision: 1 }, "memory/deleted"],
        ["memory_append", { section: "Decisions", text: "After the delete" }, "memory/deleted"],
        ["memory_read", {}, "memory/not-found"],
        ["memory_recall", { query: "api" }, "memory/not-found"],
        ["memory_history", {}, "memory/not-found"],
      ]) {
        const r = await callTool(alice, tool, { scope: "team", id: "doomed", ...args });
        assert.equal(r.code, code, `${tool}: ${r.text}`);
        assert.doesNotMatch(r.text, /Ship on Fridays/);
      }
      assert.equal((await audited("save", "alice"))?.status, 409, "the refused save is audited");
      assert.equal((await call("POST", `${path}/restore`, { key: keys.admin })).status, 200);
      const after = await call("GET", path, { key: keys.bob });
      assert.deepEqual([after.json.revision, after.json.content], [1, DOC], "nothing was written while it was deleted");
      // The recall's bounds are the route's: the budget, and the query's length.
      const small = await callTool(alice, "memory_recall", { scope: "team", id: "doomed", query: "where is the API", budget: 12 });
      assert.equal(small.isError, undefined, small.text);
      assert.ok(small.structuredContent.chars <= 12, small.text);
      assert.equal(small.structuredContent.totals.budget, 12);
      const long = await callTool(alice, "memory_recall", { query: "api ".repeat(501) });
      assert.equal(long.code, "request/invalid-arguments", long.text);
      // A key revoked while its client is connected: the next call is the REST API's 401.
      const minted = await call("POST", `/v1/teams/${team}/keys`, { key: keys.admin, body: { member: "carol", role: "writer" } });
      assert.equal(minted.status, 201, minted.text);
      const carol = await mcpClient(hub.url, minted.json.key);
      try {
        assert.equal((await callTool(carol, "memory_read", { scope: "team", id: "doomed" })).structuredContent.revision, 1);
        assert.equal((await call("DELETE", `/v1/teams/${team}/keys/${minted.json.id}`, { key: keys.admin })).status, 204);
        await assert.rejects(callTool(carol, "memory_save", { scope: "team", id: "doomed", content: `${DOC}\n- 2025-03-19: Revoked`, baseRevision: 1 }), /401|invalid-key/);
      } finally {
        await carol.close();
      }
      assert.equal((await call("GET", path, { key: keys.bob })).json.revision, 1);
    });

    test("GET /mcp is 405 (stateless: no event stream)", async () => {
      const r = await fetch(`${hub.url}/mcp`, { headers: { authorization: `Bearer ${keys.alice}` } });
      assert.equal(r.status, 405);
      assert.equal(r.headers.get("allow"), "POST");
    });

    if (target === "workerd") {
      test("the MCP Inspector CLI lists the tools", async () => {
        const build = join(root, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");
        // From its own folder: inspector-cli 1.0.3 checks for its package.json
        // relative to the working directory but imports it relative to itself.
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [join(build, "index.js"), `${hub.url}/mcp`, "--transport", "http", "--method", "tools/list", "--header", `Authorization: Bearer ${keys.alice}`],
          { cwd: build, timeout: 60_000 },
        );
        const listed = JSON.parse(stdout);
        assert.deepEqual(listed.tools.map((t) => t.name).sort(), TOOLS);
      });
    }
  });
}
