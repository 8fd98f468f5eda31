// Short-term task memories over HTTP, against both targets started for
// real, every answer checked against hub/openapi.json: saved by writers under
// the team rules with a ttl, read with expiresAt, listed, 404 once expired,
// removed by the scheduled sweep (every second here), never seen by
// another team.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { hubConfig } from "../src/settings.js";
import { startDeno, startWorkerd } from "../run.mjs";
import { client, sleep, until } from "./client.mjs";
import { callTool, mcpClient } from "./mcp-client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "6000", MEMDOC_HUB_SWEEP_INTERVAL_SECONDS: "1" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-tasks-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: join(work, "kv"), vars }),
};
const DOC = "## Current Task\n- 2025-01-03: migrate the billing tables";

test("MEMDOC_HUB_TASK_TTL_SECONDS is checked at start: 1 to 2592000, default 86400", () => {
  assert.equal(hubConfig({}).taskTtlSeconds, 86_400);
  for (const bad of ["0", "2592001", "soon"]) assert.throws(() => hubConfig({ MEMDOC_HUB_TASK_TTL_SECONDS: bad }), /MEMDOC_HUB_TASK_TTL_SECONDS must be a whole number from 1 to 2592000/);
});

for (const [target, start] of Object.entries(targets)) {
  describe(`hub task memories on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let t;
    let other;
    before(async () => {
      hub = await start();
      call = client(hub.url);
      const team = async (name) => {
        const made = await call("POST", "/v1/teams", { key: operator, body: { team: name, admin: "root" } });
        const key = async (member, role) => (await call("POST", `/v1/teams/${name}/keys`, { key: made.json.key, body: { member, role } })).json.key;
        return { name, admin: made.json.key, writer: await key("alice", "writer"), reader: await key("rita", "reader") };
      };
      t = await team(`tasks-${target}`);
      other = await team(`others-${target}`);
    });
    after(() => hub?.stop());
    const task = (id, q = "") => `/v1/teams/${t.name}/memories/task/${id}${q}`;
    const put = (id, body, revision, q = "", key = t.writer) => call("PUT", task(id, q), { key, body, headers: { "if-match": `"${revision}"` } });

    test("PUT task/{id} (writer) saves by the team rules; GET shows expiresAt, the default ttl a day from the last write", async () => {
      assert.equal((await put("plan", DOC, 0, "", t.reader)).status, 403);
      const before = Date.now();
      const saved = await put("plan", DOC, 0);
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.json.revision, 1);
      const read = await call("GET", task("plan"), { key: t.reader });
      assert.equal(read.status, 200);
      assert.equal(read.json.content, DOC);
      const ttl = Date.parse(read.json.expiresAt) - before;
      assert.ok(ttl >= 86_400_000 && ttl < 86_400_000 + 60_000, `expires a day after the write: ${read.json.expiresAt}`);
      const stale = await put("plan", `${DOC}\n- 2025-01-04: then the invoices`, 0);
      assert.equal(stale.status, 412);
      const personal = await put("notes", "## Preferences\n- 2025-01-03: short answers", 0);
      assert.equal(personal.status, 422, "the team rules apply");
      for (const bad of ["0", "2592001", "1.5", "x"]) assert.equal((await put("plan", DOC, 1, `?ttl=${bad}`)).status, 400, bad);
      assert.equal((await call("GET", task("never"), { key: t.reader })).status, 404);
      assert.equal((await call("GET", `/v1/teams/${t.name}/memories/team/plan`, { key: t.reader })).json.revision, 0, "not a team memory");
      const elsewhere = await call("GET", `/v1/teams/${t.name}/memories/task/plan`, { key: other.admin });
      assert.equal(elsewhere.status, 404, "another team's key finds nothing");
      assert.equal((await call("GET", `/v1/teams/${other.name}/memories/task/plan`, { key: other.admin })).status, 404);
    });

    test("the MCP tools accept scope task: save, read, recall and history, by the team rules", async () => {
      const agent = await mcpClient(hub.url, t.writer);
      try {
        const missing = await callTool(agent, "memory_read", { scope: "task", id: "mcp-task" });
        assert.equal(missing.code, "memory/not-found");
        const saved = await callTool(agent, "memory_save", { scope: "task", id: "mcp-task", content: DOC, baseRevision: 0 });
        assert.ok(!saved.isError, saved.text);
        assert.equal(saved.structuredContent.revision, 1);
        const read = await callTool(agent, "memory_read", { scope: "task", id: "mcp-task" });
        assert.ok(!read.isError, read.text);
        assert.equal(read.structuredContent.content, DOC);
        assert.match(read.structuredContent.prompt, /billing tables/);
        const recalled = await callTool(agent, "memory_recall", { scope: "task", id: "mcp-task", query: "billing" });
        assert.ok(!recalled.isError, recalled.text);
        assert.match(recalled.structuredContent.content, /billing/);
        const history = await callTool(agent, "memory_history", { scope: "task", id: "mcp-task" });
        assert.deepEqual(history.structuredContent.entries.map((e) => e.revision), [1]);
        const personal = await callTool(agent, "memory_save", { scope: "task", id: "mcp-task", content: `${DOC}\n\n## Preferences\n- 2025-03-16: I like tea`, baseRevision: 1 });
        assert.equal(personal.code, "save/rejected", personal.text);
        assert.match(personal.text, /Scope "task"/);
        assert.equal((await callTool(agent, "memory_read", { scope: "task", id: "../x" })).code, "request/invalid-id");
      } finally {
        await agent.close();
      }
    });

    test("subscribers of a task memory get its saves, then {expired: true} when the sweep removes it", async () => {
      assert.equal((await put("watched", DOC, 0, "?ttl=3")).status, 200);
      const ws = new WebSocket(`${hub.url.replace(/^http/, "ws")}${task("watched")}/events`, ["memdoc", `bearer.${t.reader}`]);
      const messages = [];
      ws.addEventListener("message", (e) => messages.push(JSON.parse(e.data)));
      await new Promise((resolve, reject) => {
        ws.addEventListener("open", resolve, { once: true });
        ws.addEventListener("error", () => reject(new Error("WebSocket failed")), { once: true });
      });
      assert.equal((await put("watched", `${DOC}\n- 2025-01-04: then the invoices`, 1, "?ttl=2")).status, 200);
      await until("the save's event", () => messages.some((m) => m.revision === 2));
      await until("the expiry's event", () => messages.some((m) => m.expired === true));
      assert.deepEqual(messages.map((m) => m.revision ?? m), [2, { expired: true }]);
      ws.close();
    });

    test("a task memory expires ?ttl seconds after its last write: 404, off the list, removed by the sweep, its id free again", async () => {
      const saved = await put("short", DOC, 0, "?ttl=3");
      assert.equal(saved.status, 200);
      const listed = (await call("GET", `/v1/teams/${t.name}/memories`, { key: t.reader })).json.memories;
      const entry = listed.find((m) => m.scope === "task" && m.id === "short");
      assert.ok(entry?.expiresAt, JSON.stringify(listed));
      // A write renews it.
      const renewed = await put("short", `${DOC}\n- 2025-01-04: then the invoices`, 1, "?ttl=2");
      assert.equal(renewed.status, 200);
      const { expiresAt } = (await call("GET", task("short"), { key: t.reader })).json;
      await sleep(Math.max(0, Date.parse(expiresAt) - Date.now()) + 300);
      const gone = await call("GET", task("short"), { key: t.reader });
      assert.equal(gone.status, 404);
      assert.equal(gone.json.code, "memory/not-found");
      assert.ok(!(await call("GET", `/v1/teams/${t.name}/memories`, { key: t.reader })).json.memories.some((m) => m.id === "short"));
      // The sweep (every second) removes it, audited; nothing is archived.
      const expired = await until("the sweep", async () => (await call("GET", `/v1/teams/${t.name}/audit?limit=1000`, { key: t.admin })).json.entries.find((e) => e.action === "expire" && e.target === "task/short"));
      assert.deepEqual([expired.member, expired.status, expired.by], [null, 204, "sweep"]);
      const again = await put("short", DOC, 0);
      assert.equal(again.status, 200, "the id starts again");
      assert.equal(again.json.revision, 1);
    });
  });
}

// Without a sweep soon (the schedule's default, a day): what a save does to
// a task memory that expired before the sweep came by.
for (const [target, start] of Object.entries({
  workerd: () => startWorkerd({ build: join(work, "workerd-build-daily"), persist: false, vars: { ...vars, MEMDOC_HUB_SWEEP_INTERVAL_SECONDS: "86400" } }),
  deno: () => startDeno({ kvPath: join(work, "kv-daily"), vars: { ...vars, MEMDOC_HUB_SWEEP_INTERVAL_SECONDS: "86400" } }),
})) {
  test(`${target}: task memory saves count in stats.writes; a save over an expired one audits its expiry; DELETE is 405`, async () => {
    const hub = await start();
    try {
      const call = client(hub.url);
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: "tasks-daily", admin: "root" } });
      const admin = made.json.key;
      const path = "/v1/teams/tasks-daily/memories/task/brief";
      const writes = async () => (await call("GET", "/v1/teams/tasks-daily/stats", { key: admin })).json.writes;
      assert.equal(await writes(), 0);
      assert.equal((await call("PUT", `${path}?ttl=1`, { key: admin, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      assert.equal(await writes(), 1, "the task memory's save is a write");
      const del = await call("DELETE", path, { key: admin, headers: { "if-match": '"1"' } });
      assert.deepEqual([del.status, del.headers.get("allow")], [405, "GET, PUT"]);
      await sleep(1300);
      const again = await call("PUT", path, { key: admin, body: DOC, headers: { "if-match": '"0"' } });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json.revision, 1, "the expired memory was removed first");
      assert.equal(await writes(), 2);
      const audit = (await call("GET", "/v1/teams/tasks-daily/audit?limit=20", { key: admin })).json.entries;
      const expired = audit.filter((e) => e.action === "expire" && e.target === "task/brief");
      assert.deepEqual(expired.map((e) => [e.member, e.status, e.by]), [[null, 204, "save"]], "the expiry is audited once, by the save");
    } finally {
      await hub.stop();
    }
  });
}
