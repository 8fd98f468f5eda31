// Observability (docs/HUB.md, "Observability") on both targets started for
// real: X-Request-Id on every response, one JSON log line per request that
// never holds a secret, a key or a memory's content, `GET /metrics` in the
// Prometheus text format (on workerd added up from the teams' Durable
// Objects by the Worker), and a team's stats.
//
// Needs the global WebSocket (Node 22, or Node 20 with --experimental-websocket).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startDeno, startWorkerd } from "../run.mjs";
import { client } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "600" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-observability-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: (log) => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars, log }),
  deno: (log) => startDeno({ kvPath: work, vars, log }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const FIELDS = ["at", "requestId", "method", "route", "status", "ms", "team", "member", "keyId", "bytesIn", "bytesOut"];
const METRICS = [
  "memdoc_http_requests_total",
  "memdoc_http_request_duration_seconds",
  "memdoc_saves_total",
  "memdoc_recalls_total",
  "memdoc_recall_duration_seconds",
  "memdoc_sweeps_total",
  "memdoc_archived_entries_total",
  "memdoc_rate_limited_total",
  "memdoc_mcp_tool_calls_total",
  "memdoc_event_subscribers",
];

/** The value of one sample of a Prometheus text, or undefined. */
function sample(text, series) {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const [target, start] of Object.entries(targets)) {
  describe(`hub observability on ${target}`, { concurrency: false }, () => {
    const logs = [];
    /** Every secret and content this suite sends: none may reach a log line. */
    const secrets = [operator];
    let hub;
    let call;
    let t;
    before(async () => {
      hub = await start((line) => logs.push(line));
      call = client(hub.url);
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: `obs-${target}`, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const admin = made.json.key;
      const key = async (member, role) => (await call("POST", `/v1/teams/obs-${target}/keys`, { key: admin, body: { member, role } })).json;
      const writer = await key("alice", "writer");
      const reader = await key("rita", "reader");
      t = { name: `obs-${target}`, admin, adminId: made.json.keyId, writer: writer.key, writerId: writer.id, reader: reader.key };
      secrets.push(admin, writer.key, reader.key);
    });
    after(() => hub?.stop());

    test("X-Request-Id: the client's plain token is kept, anything else replaced; on every answer", async () => {
      const own = await call("GET", "/healthz", { headers: { "x-request-id": "trace.42_a-b" } });
      assert.equal(own.headers.get("x-request-id"), "trace.42_a-b");
      for (const bad of ["has space", "x".repeat(65), "ünï", ""]) {
        const r = await call("GET", "/healthz", { headers: { "x-request-id": bad } });
        assert.match(r.headers.get("x-request-id"), /^[A-Za-z0-9._-]{1,64}$/);
        assert.notEqual(r.headers.get("x-request-id"), bad);
      }
      const fresh = [await call("GET", "/v1/whoami", { key: t.reader }), await call("GET", "/v1/whoami"), await call("GET", "/nowhere"), await call("GET", m(t.name, "team", "none"), { key: t.reader })];
      for (const r of fresh) assert.match(r.headers.get("x-request-id"), /^[A-Za-z0-9._-]{1,64}$/);
      assert.notEqual(fresh[0].headers.get("x-request-id"), fresh[1].headers.get("x-request-id"));
      assert.match(own.headers.get("access-control-expose-headers"), /x-request-id/);
    });

    test("one JSON log line per request: the route template, the caller, sizes; never a secret or content", async () => {
      const codeword = `The launch codeword is ${randomBytes(8).toString("hex")}`;
      const content = `## Facts\n- 2025-01-31: ${codeword}`;
      secrets.push(codeword);
      const id = `put-${target}`;
      const put = await call("PUT", m(t.name, "team", "notes"), { key: t.writer, body: content, headers: { "if-match": '"0"', "x-request-id": id } });
      assert.equal(put.status, 200, put.text);
      const denied = await call("PUT", m(t.name, "team", "notes"), { key: t.reader, body: content, headers: { "if-match": '"1"', "x-request-id": `${id}-denied` } });
      assert.equal(denied.status, 403);
      const line = async (requestId) => {
        for (let i = 0; i < 50; i += 1) {
          const found = logs.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId);
          if (found) return found;
          await sleep(100);
        }
        assert.fail(`no log line for ${requestId}`);
      };
      const entry = await line(id);
      assert.deepEqual(Object.keys(entry), FIELDS);
      assert.deepEqual(
        [entry.method, entry.route, entry.status, entry.team, entry.member, entry.keyId, entry.bytesIn],
        ["PUT", "/v1/teams/{team}/memories/{scope}/{id}", 200, t.name, "alice", t.writerId, Buffer.byteLength(content)],
      );
      assert.equal(entry.bytesOut, Buffer.byteLength(put.text));
      assert.ok(entry.ms >= 0);
      assert.ok(!Number.isNaN(Date.parse(entry.at)));
      assert.deepEqual([(await line(`${id}-denied`)).status, (await line(`${id}-denied`)).member], [403, "rita"]);
      const health = await call("GET", "/healthz", { headers: { "x-request-id": `${id}-health` } });
      assert.equal(health.status, 200);
      const h = await line(`${id}-health`);
      assert.deepEqual([h.route, h.team, h.member, h.keyId, h.bytesIn], ["/healthz", null, null, null, 0]);
      const nowhere = await call("GET", "/nowhere", { headers: { "x-request-id": `${id}-nowhere` } });
      assert.equal(nowhere.status, 404);
      assert.equal((await line(`${id}-nowhere`)).route, "unmatched");
    });

    test("POST /mcp: its log line names the key's caller, and its tools make no requests of their own (they call the routes' services)", async () => {
      const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memory_read", arguments: { scope: "team", id: "obs-mcp" } } };
      const r = await fetch(`${hub.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.reader}`, "content-type": "application/json", accept: "application/json, text/event-stream", "x-request-id": `mcp-trace-${target}` },
        body: JSON.stringify(body),
      });
      assert.equal(r.status, 200, await r.text());
      await sleep(200);
      const lines = logs.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((l) => l.requestId === `mcp-trace-${target}`);
      const outer = lines.find((l) => l.route === "/mcp");
      assert.deepEqual([outer?.team, outer?.member, outer?.keyId], [t.name, "rita", t.reader.split(".")[2]], JSON.stringify(outer));
      assert.deepEqual(lines.map((l) => l.route), ["/mcp"], `one line, the POST's: ${JSON.stringify(lines)}`);
      // The read is audited as the route's read is, as the key's member.
      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=5`, { key: t.admin });
      const read = audit.json.entries.find((e) => e.target === "team/obs-mcp");
      assert.deepEqual([read?.action, read?.member, read?.status, read?.revision], ["read", "rita", 200, 0], JSON.stringify(audit.json.entries));
    });

    test("GET /metrics: the operator's, in the Prometheus text format, with every metric of the hub", async () => {
      assert.equal((await call("GET", "/metrics")).json.code, "auth/missing-key");
      assert.equal((await call("GET", "/metrics", { key: t.admin })).json.code, "auth/invalid-key");
      const doc = "## Decisions\n- 2025-01-03: Postgres is the primary store\n## Open Questions\n- 2025-01-01: Which CDN?";
      secrets.push("Postgres is the primary store");
      assert.equal((await call("PUT", m(t.name, "team", "metered"), { key: t.writer, body: doc, headers: { "if-match": '"0"' } })).status, 200);
      assert.equal((await call("PUT", m(t.name, "team", "metered"), { key: t.writer, body: `${doc}\n- 2025-01-02: Which DNS?`, headers: { "if-match": '"0"' } })).status, 412);
      assert.equal((await call("GET", `${m(t.name, "team", "metered")}/recall?q=postgres`, { key: t.reader })).status, 200);
      assert.equal((await call("PUT", `/v1/teams/${t.name}/policies`, { key: t.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: 36_500 }] } })).status, 200);
      const swept = await call("POST", `/v1/teams/${t.name}/sweep?today=2200-01-01`, { key: t.admin });
      assert.equal(swept.json.archived, 1, swept.text);
      const ws = new WebSocket(hub.url.replace(/^http/, "ws") + `${m(t.name, "team", "metered")}/events`, ["memdoc", `bearer.${t.reader}`]);
      await new Promise((resolve, reject) => {
        ws.addEventListener("open", resolve, { once: true });
        ws.addEventListener("error", () => reject(new Error("WebSocket failed")), { once: true });
      });
      const r = await call("GET", "/metrics", { key: operator });
      assert.equal(r.status, 200, r.text);
      assert.match(r.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
      for (const name of METRICS) assert.match(r.text, new RegExp(`^# TYPE ${name} (counter|histogram|gauge)$`, "m"), name);
      const names = new Set(r.text.split("\n").filter((l) => l.startsWith("# TYPE ")).map((l) => l.split(" ")[2]));
      assert.deepEqual([...names].sort(), [...METRICS].sort(), "exactly the metrics of the issue");
      const put = 'memdoc_http_requests_total{route="/v1/teams/{team}/memories/{scope}/{id}",method="PUT",status="200"}';
      assert.ok(sample(r.text, put) >= 2, put);
      assert.equal(sample(r.text, 'memdoc_http_requests_total{route="/v1/teams/{team}/memories/{scope}/{id}",method="PUT",status="412"}'), 1);
      assert.ok(sample(r.text, 'memdoc_saves_total{outcome="saved"}') >= 2);
      assert.equal(sample(r.text, 'memdoc_saves_total{outcome="conflict"}'), 1);
      assert.equal(sample(r.text, "memdoc_recalls_total"), 1);
      assert.equal(sample(r.text, "memdoc_recall_duration_seconds_count"), 1);
      assert.equal(sample(r.text, 'memdoc_recall_duration_seconds_bucket{le="+Inf"}'), 1);
      assert.equal(sample(r.text, "memdoc_sweeps_total"), 1);
      assert.equal(sample(r.text, "memdoc_archived_entries_total"), 1);
      assert.equal(sample(r.text, "memdoc_event_subscribers"), 1);
      assert.equal(sample(r.text, 'memdoc_mcp_tool_calls_total{tool="memory_read",outcome="ok"}'), 1, "the POST /mcp test's call");
      const route = 'route="/v1/teams/{team}/memories/{scope}/{id}"';
      assert.equal(sample(r.text, `memdoc_http_request_duration_seconds_bucket{${route},le="+Inf"}`), sample(r.text, `memdoc_http_request_duration_seconds_count{${route}}`));
      ws.close();
    });

    test("stats: the team's writes, conflicts, merges, recalls, refusals; expired entries recalled stay 0; admin only", async () => {
      const path = `/v1/teams/${t.name}/stats`;
      const before = (await call("GET", path, { key: t.admin })).json;
      const doc = "## Decisions\n- 2025-01-03: Redis caches sessions";
      assert.equal((await call("PUT", m(t.name, "team", "stats"), { key: t.writer, body: doc, headers: { "if-match": '"0"' } })).status, 200);
      assert.equal((await call("PUT", m(t.name, "team", "stats"), { key: t.writer, body: `${doc}\n- 2025-01-04: Logs go to Loki`, headers: { "if-match": '"1"' } })).status, 200);
      const merged = await call("PUT", `${m(t.name, "team", "stats")}?onConflict=merge`, { key: t.writer, body: `## Decisions\n- 2025-01-02: Queues use SQS\n- 2025-01-03: Redis caches sessions`, headers: { "if-match": '"1"' } });
      assert.equal(merged.status, 200, merged.text);
      assert.equal(merged.json.revision, 3);
      assert.equal((await call("PUT", m(t.name, "team", "stats"), { key: t.writer, body: doc, headers: { "if-match": '"1"' } })).status, 412);
      for (const q of ["redis", "queues"]) assert.equal((await call("GET", `${m(t.name, "team", "stats")}/recall?q=${q}`, { key: t.reader })).status, 200);
      assert.equal((await call("GET", path, { key: t.reader })).status, 403);
      const now = (await call("GET", path, { key: t.admin })).json;
      assert.deepEqual(
        [now.writes - before.writes, now.conflicts - before.conflicts, now.merges - before.merges, now.recalls - before.recalls],
        [3, 1, 1, 2],
      );
      assert.ok(now.refusals - before.refusals >= 1, "the reader's 403");
      assert.equal(now.expiredEntriesRecalled, 0);
      assert.equal(now.indexLag, null);
      assert.equal(now.conflictRate, now.conflicts / (now.writes + now.conflicts));
      assert.ok(Number.isInteger(now.recallP50Ms) && now.recallP50Ms >= 0);
      const future = (await call("GET", `${path}?since=2999-01-01T00:00:00Z`, { key: t.admin })).json;
      assert.deepEqual([future.writes, future.recalls, future.recallP50Ms, future.conflictRate], [0, 0, null, 0]);
      assert.equal((await call("GET", `${path}?since=2020-01-01`, { key: t.admin })).json.writes, now.writes);
      assert.equal((await call("GET", `${path}?since=yesterday`, { key: t.admin })).json.code, "request/invalid-query");
      assert.equal((await call("POST", path, { key: t.admin, documented: false })).status, 405);
    });

    test("no log line holds a secret, a key or a memory's content", () => {
      assert.ok(logs.length > 30, `${logs.length} lines`);
      for (const line of logs) {
        for (const secret of secrets) assert.ok(!line.includes(secret), `a log line holds a secret or content: ${line}`);
        assert.doesNotMatch(line, /mdk\./);
      }
    });
  });
}
