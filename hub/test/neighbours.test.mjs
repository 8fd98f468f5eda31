// One team never slows or breaks another (docs/HUB.md, "Limits" and
// "Events"), against both targets started for real on 127.0.0.1: what an
// anonymous client sends makes no metrics series; event sockets are capped
// per key and per team with a coded refusal, and closed with a close code
// and reason when their key is revoked or ends, their member is disabled or
// their team is deleted; recall answers are proportional to what they
// recall. The per-team queues are checked in real Deno over Deno KV
// (fixtures/serial-deno.js): two handles of one team share them; the
// Deno embedder thread's share for indexing (fixtures/embedder-share-deno.js);
// the Deno hub's turns in long work (fixtures/turns-deno.js); and the
// earlier layout's vectors deleted a page at a time (fixtures/vectors-layout-deno.js).
//
// Needs the global WebSocket (Node 22, or Node 20 with --experimental-websocket).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { root, startDeno, startWorkerd } from "../run.mjs";
import { client, newTeam } from "./client.mjs";
import { callTool, mcpClient } from "./mcp-client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "100000" };
const work = mkdtempSync(join(tmpdir(), "memdoc-neighbours-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: join(work, "deno"), vars }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
/** The caps of src/events.js (docs/HUB.md, "Events"). */
const SOCKETS_PER_KEY = 16;
const SOCKETS_PER_TEAM = 256;
/** The bounds of a recall's answer (src/recall-answer.js, src/routes/recall.js; docs/HUB.md). */
const OMITTED_TEXT_CHARS = 16_000;
const TEAM_RECALL_MEMORIES = 100;
const TEAM_OMITTED_LISTED = 200;
const codePoints = (text) => [...text].length;

/** A memory of `n` dated items of about 100 characters, each naming `topic`. */
const manyItems = (n, topic) =>
  `## Notes\n${Array.from({ length: n }, (_, i) => `- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: ${topic} note ${i} ${"about the rollout of the billing service and its queues ".slice(0, 70)}`).join("\n")}`;

/** The status line and headers of one raw request `method path` (any method token). */
function rawStatus(url, method, path) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    const done = () => {
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, 5000);
    socket.on("data", (d) => {
      text += d;
      if (text.includes("\r\n\r\n")) {
        clearTimeout(timer);
        done();
      }
    });
    socket.on("error", () => {
      clearTimeout(timer);
      done();
    });
    socket.on("connect", () => socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
  });
}

/** A WebSocket upgrade's answer when it is not 101: its status and problem. */
function refusedUpgrade(url, path, key) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: hostname,
      port,
      path,
      headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": randomBytes(16).toString("base64"), authorization: `Bearer ${key}` },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: 101 });
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, json: JSON.parse(body) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** An open events socket of `path` with `key`; `closed` settles with its close code and reason. */
async function socketOf(base, path, key) {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}${path}/events`, ["memdoc", `bearer.${key}`]);
  const messages = [];
  ws.addEventListener("message", (e) => messages.push(JSON.parse(e.data)));
  const closed = new Promise((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason }), { once: true }));
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error(`the socket of ${path} did not open`)), { once: true });
  });
  return { ws, messages, closed };
}

/**
 * An events socket read frame by frame: its text messages, and the code and
 * reason of the server's close frame as soon as it arrives (workerd under
 * Miniflare keeps the TCP connection of a socket its object closed from
 * another request open until it stops, so a WebSocket client's close event
 * would come only then).
 */
async function frames(base, path, key) {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  const messages = [];
  let seeClose;
  const closed = new Promise((resolve) => (seeClose = resolve));
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  await new Promise((resolve, reject) => {
    socket.on("connect", () =>
      socket.write(`GET ${path}/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nAuthorization: Bearer ${key}\r\n\r\n`),
    );
    socket.on("error", reject);
    socket.on("data", (data) => {
      buffer = Buffer.concat([buffer, data]);
      if (!upgraded) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString();
        if (!head.startsWith("HTTP/1.1 101")) return reject(new Error(head));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve();
      }
      // Server frames are unmasked; these are small and whole.
      for (;;) {
        if (buffer.length < 2) return;
        let length = buffer[1] & 0x7f;
        let at = 2;
        if (length === 126) [length, at] = [buffer.length < 4 ? Infinity : buffer.readUInt16BE(2), 4];
        if (buffer.length < at + length) return;
        const opcode = buffer[0] & 0x0f;
        const payload = buffer.subarray(at, at + length);
        buffer = buffer.subarray(at + length);
        if (opcode === 1) messages.push(JSON.parse(payload.toString()));
        if (opcode === 8) seeClose({ code: payload.readUInt16BE(0), reason: payload.subarray(2).toString() });
      }
    });
  });
  after(() => socket.destroy());
  return { messages, closed };
}

/** The close of `s` within `ms`, or "still open". */
const closeWithin = (s, ms = 10_000) => Promise.race([s.closed, new Promise((resolve) => setTimeout(() => resolve("still open"), ms))]);

for (const [target, start] of Object.entries(targets)) {
  describe(`one team never slows or breaks another, on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    const teams = {};
    const team = (name) => newTeam(call, operator, name);
    before(async () => {
      hub = await start();
      call = client(hub.url);
      teams.a = await team(`nb-a-${target}`);
    });
    after(() => hub?.stop());

    test("a made-up HTTP method makes no metrics series: its requests count as method other", async () => {
      const methods = ["MADEUPA", `X${"Y".repeat(4000)}`, "BREW"];
      for (const method of methods) await rawStatus(hub.url, method, "/healthz");
      const scraped = await call("GET", "/metrics", { key: operator });
      assert.equal(scraped.status, 200);
      for (const method of methods) assert.ok(!scraped.text.includes(method.slice(0, 64)), `${method.slice(0, 20)}… is a label value of /metrics`);
      const methodsSeen = new Set([...scraped.text.matchAll(/memdoc_http_requests_total\{[^}]*method="([^"]*)"/g)].map((x) => x[1]));
      for (const method of methodsSeen) assert.ok(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"].includes(method), `method label ${method.slice(0, 20)}`);
    });

    test("a recall answers omitted items by place and reason, their text only on request and within its bound", async () => {
      const path = m(teams.a.name, "team", "large");
      const content = manyItems(285, "deploy");
      assert.ok(content.length > 24_000);
      const saved = await call("PUT", path, { key: teams.a.admin, body: content, headers: { "if-match": '"0"' } });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      const r = await call("GET", `${path}/recall?q=deploy&budget=400`, { key: teams.a.admin });
      assert.equal(r.status, 200);
      assert.ok(r.json.omitted.length > 200, "most items are omitted");
      for (const item of r.json.omitted) {
        assert.deepEqual(Object.keys(item).sort(), ["date", "range", "reason", "score", "section"], JSON.stringify(item));
      }
      // An omitted item is about 170 bytes, whatever its text: the answer was 5.4 times the memory with their texts and whys.
      assert.ok(r.text.length < 3 * content.length, `${r.text.length} bytes answered for a memory of ${content.length}`);

      const withText = await call("GET", `${path}/recall?q=deploy&budget=400&omittedText=true`, { key: teams.a.admin });
      assert.equal(withText.status, 200);
      const texts = withText.json.omitted.filter((item) => item.text !== undefined);
      assert.ok(texts.length > 0 && texts.length < withText.json.omitted.length, `${texts.length} of ${withText.json.omitted.length} omitted items with their text`);
      const chars = texts.reduce((n, item) => n + codePoints(item.text), 0);
      assert.ok(chars <= OMITTED_TEXT_CHARS && chars > OMITTED_TEXT_CHARS - 200, `${chars} code points of omitted text`);
      const bad = await call("GET", `${path}/recall?q=deploy&omittedText=yes`, { key: teams.a.admin });
      assert.deepEqual([bad.status, bad.json.code], [400, "request/invalid-query"]);
    });

    test("team recall: every memory's recency counts to one date, not each memory's newest entry", async () => {
      const t = await team(`nb-today-${target}`);
      // The same item in two memories, one dated years before the other: the newer goes first.
      assert.equal((await call("PUT", m(t.name, "team", "a-old"), { key: t.admin, body: "## Notes\n- 2019-03-01: Deploy the billing service on Fridays", headers: { "if-match": '"0"' } })).status, 200);
      assert.equal((await call("PUT", m(t.name, "team", "b-new"), { key: t.admin, body: "## Notes\n- 2025-03-01: Deploy the billing service on Fridays", headers: { "if-match": '"0"' } })).status, 200);
      const r = await call("GET", `/v1/teams/${t.name}/recall?q=deploy%20billing&budget=60`, { key: t.admin });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json.selected.map((item) => item.memory.id), ["b-new"], r.text);
      assert.ok(r.json.omitted.some((item) => item.memory.id === "a-old" && item.reason === "budget"));
    });

    test("team recall: bounded work and answer over more memories than its cap; MCP structuredContent bounded by the budget", { timeout: 120_000 }, async () => {
      const t = await team(`nb-many-${target}`);
      const n = TEAM_RECALL_MEMORIES + 5;
      for (let i = 0; i < n; i += 1) {
        const r = await call("PUT", m(t.name, "team", `m${String(i).padStart(3, "0")}`), { key: t.admin, body: manyItems(3, "deploy"), headers: { "if-match": '"0"' } });
        assert.equal(r.status, 200);
      }
      const r = await call("GET", `/v1/teams/${t.name}/recall?q=deploy&budget=1`, { key: t.admin });
      assert.equal(r.status, 200);
      assert.equal(r.json.totals.memories, TEAM_RECALL_MEMORIES);
      assert.equal(r.json.totals.skippedMemories, 5);
      assert.equal(r.json.totals.items, 3 * TEAM_RECALL_MEMORIES);
      assert.equal(r.json.totals.omitted, 3 * TEAM_RECALL_MEMORIES);
      assert.equal(r.json.omitted.length, TEAM_OMITTED_LISTED);
      assert.ok(r.json.omitted.every((item) => item.text === undefined));
      // The first memories' omitted items, in order: those past the listed ones are counted, not listed.
      const ids = Array.from({ length: TEAM_OMITTED_LISTED }, (_, k) => `m${String(Math.floor(k / 3)).padStart(3, "0")}`);
      assert.deepEqual(r.json.omitted.map((item) => item.memory.id), ids);

      const mcp = await mcpClient(hub.url, t.admin);
      try {
        const got = await callTool(mcp, "memory_recall", { query: "deploy", budget: 1 });
        assert.equal(got.isError, undefined, got.text);
        const size = JSON.stringify(got.structuredContent).length;
        assert.equal(got.structuredContent.totals.omitted, 3 * TEAM_RECALL_MEMORIES);
        assert.ok(size < 1000, `structuredContent of ${size} bytes for a budget of 1`);
      } finally {
        await mcp.close();
      }
    });

    test("event sockets are capped per key with a coded refusal; a place comes back when one closes", { timeout: 60_000 }, async () => {
      const reader = await teams.a.key("capped", "reader");
      const path = m(teams.a.name, "team", "capped");
      const open = [];
      for (let i = 0; i < SOCKETS_PER_KEY; i += 1) open.push(await socketOf(hub.url, path, reader.key));
      const refused = await refusedUpgrade(hub.url, `${path}/events`, reader.key);
      assert.deepEqual([refused.status, refused.json?.code], [429, "events/too-many-sockets"], JSON.stringify(refused.json));
      // Another key of the team is not held back by this one's.
      const other = await teams.a.key("capped2", "reader");
      const fine = await socketOf(hub.url, path, other.key);
      fine.ws.close();
      open[0].ws.close();
      await open[0].closed;
      let again;
      for (let i = 0; i < 50 && (again = await refusedUpgrade(hub.url, `${path}/events`, reader.key)).status !== 101; i += 1) await new Promise((r) => setTimeout(r, 100));
      assert.equal(again.status, 101, "a closed socket frees its place");
      for (const s of open) s.ws.close();
    });

    test("event sockets are capped per team: the key past the team's cap is refused however few it holds", { timeout: 120_000 }, async () => {
      const t = await team(`nb-team-cap-${target}`);
      const path = m(t.name, "team", "crowded");
      const open = [];
      for (let k = 0; k < SOCKETS_PER_TEAM / SOCKETS_PER_KEY; k += 1) {
        const reader = await t.key(`crowd${k}`, "reader");
        for (let i = 0; i < SOCKETS_PER_KEY; i += 1) open.push(await socketOf(hub.url, path, reader.key));
      }
      const late = await t.key("late", "reader");
      const refused = await refusedUpgrade(hub.url, `${path}/events`, late.key);
      assert.deepEqual([refused.status, refused.json?.code], [429, "events/too-many-sockets"], JSON.stringify(refused.json));
      // Another team is not held back by this one's.
      const elsewhere = await socketOf(hub.url, m(teams.a.name, "team", "crowded"), (await teams.a.key("free", "reader")).key);
      elsewhere.ws.close();
      for (const s of open) s.ws.close();
    });

    test("a socket whose key reaches its expiresAt is closed with 4401 auth/key-expired, with no change to the memory", { timeout: 30_000 }, async () => {
      const path = m(teams.a.name, "team", "expiring");
      const ends = new Date(Date.now() + 3000).toISOString();
      const r = await call("POST", `/v1/teams/${teams.a.name}/keys`, { key: teams.a.admin, body: { member: "ephemeral", role: "reader", expiresAt: ends } });
      assert.equal(r.status, 201, r.text);
      const s = await frames(hub.url, path, r.json.key);
      assert.deepEqual(await closeWithin(s, 15_000), { code: 4401, reason: "auth/key-expired" });
      assert.ok(Date.now() >= Date.parse(ends), "not before the key's end");
    });

    test("a socket is closed with 4401 when its key is revoked, its member disabled or its key ends; 4404 when its team is deleted", { timeout: 60_000 }, async () => {
      const t = await team(`nb-close-${target}`);
      const path = m(t.name, "team", "watched");
      const writer = await t.key("wanda", "writer");
      assert.equal((await call("PUT", path, { key: writer.key, body: "## Notes\n- 2025-01-01: one", headers: { "if-match": '"0"' } })).status, 200);

      const revoked = await t.key("rita", "reader");
      const disabled = await t.key("dora", "reader");
      const rotated = await t.key("rose", "reader");
      const kept = await t.key("kim", "reader");
      const sockets = {};
      for (const [name, k] of Object.entries({ revoked, disabled, rotated, kept })) sockets[name] = await frames(hub.url, path, k.key);

      assert.equal((await call("DELETE", `/v1/teams/${t.name}/keys/${revoked.id}`, { key: t.admin })).status, 204);
      assert.deepEqual(await closeWithin(sockets.revoked), { code: 4401, reason: "auth/invalid-key" });
      assert.equal((await call("PATCH", `/v1/teams/${t.name}/members/dora`, { key: t.admin, body: { status: "disabled" } })).status, 200);
      assert.deepEqual(await closeWithin(sockets.disabled), { code: 4401, reason: "auth/member-disabled" });
      // Its own member rotates it, with no grace.
      assert.equal((await call("POST", `/v1/teams/${t.name}/keys/${rotated.id}/rotate`, { key: rotated.key, body: { graceSeconds: 0 } })).status, 201);
      assert.deepEqual(await closeWithin(sockets.rotated), { code: 4401, reason: "auth/key-expired" });

      // The kept socket still hears the team's changes.
      assert.equal((await call("PUT", path, { key: writer.key, body: "## Notes\n- 2025-01-01: one\n- 2025-01-02: two", headers: { "if-match": '"1"' } })).status, 200);
      for (let i = 0; i < 100 && !sockets.kept.messages.some((e) => e.revision === 2); i += 1) await new Promise((r) => setTimeout(r, 100));
      assert.ok(sockets.kept.messages.some((e) => e.revision === 2), JSON.stringify(sockets.kept.messages));

      // The team goes, and a new team of the same id hears nothing through the old socket.
      assert.equal((await call("DELETE", `/v1/teams/${t.name}`, { key: operator })).status, 204);
      assert.deepEqual(await closeWithin(sockets.kept), { code: 4404, reason: "team/not-found" });
      const again = await call("POST", "/v1/teams", { key: operator, body: { team: t.name, admin: "root" } });
      assert.equal(again.status, 201);
      const heard = sockets.kept.messages.length;
      assert.equal((await call("PUT", path, { key: again.json.key, body: "## Notes\n- 2025-02-01: new tenant", headers: { "if-match": '"0"' } })).status, 200);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(sockets.kept.messages.length, heard, "nothing of the new tenant");
    });
  });
}

/** What a fixture run in real Deno (`deno run` with `flags`, then the fixture and `args`) printed, as JSON. */
function denoFixture(fixture, flags, args = []) {
  const deno = join(root, "node_modules", ".bin", "deno");
  const all = ["run", "--no-prompt", "--no-lock", ...flags, join(root, "hub", "test", "fixtures", fixture), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(deno, all, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => (status === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`deno exited with ${status}:\n${stderr}\n${stdout}`))));
  });
}

test("the earlier layout's item vectors are deleted a page at a time, every record kept (real Deno, Deno KV)", { timeout: 60_000 }, async () => {
  const out = await denoFixture("vectors-layout-deno.js", ["--unstable-kv", `--allow-read=${root},${work}`, `--allow-write=${work}`], [join(work, "layout.sqlite")]);
  assert.deepEqual([out.deleted, out.earlierLeft, out.recordsLeft, out.again], [out.earlier, 0, 80, 0], JSON.stringify(out));
  // No listing reads more than a page; the second call reads the team's mark alone.
  assert.ok(out.limits.length >= 3 && out.limits.every((limit) => limit === out.limits[0] && limit < out.earlier), JSON.stringify(out.limits));
});

test("the per-team queues hold across handles of one team (real Deno, Deno KV): a cache that replaces a handle splits no lock", { timeout: 60_000 }, async () => {
  const out = await denoFixture("serial-deno.js", ["--unstable-kv", `--allow-read=${root},${work}`, `--allow-write=${work}`], [join(work, "serial.sqlite")]);
  // Each pair of tasks ran one after the other, whichever handle queued it.
  for (const [what, order] of Object.entries(out)) assert.deepEqual(order, ["first start", "first end", "second start", "second end"], what);
});

test("the Deno embedder's thread gives indexing half its time: after an indexing call the next one rests, a query does not wait (real Deno)", { timeout: 60_000 }, async () => {
  assert.deepEqual(await denoFixture("embedder-share-deno.js", [`--allow-read=${root}`]), ["query 1", "document 1"]);
});

test("the Deno hub's turns let another request run in the middle of long work, and wait while it runs; a resolved promise would not (real Deno)", { timeout: 60_000 }, async () => {
  const out = await denoFixture("turns-deno.js", ["--unstable-kv", "--allow-net=127.0.0.1"]);
  assert.deepEqual(out.shortFirst.answered, ["short", "long"], "the short request is answered while the long one works");
  // Its ten steps of about a millisecond each resume at once: the long work
  // runs the slice it was in, and another each time its wait's bound ends.
  assert.ok(out.shortFirst.during <= 5, `${out.shortFirst.during} slices of long work ran while the short request was in flight`);
  assert.equal(out.shortLeft, 0, "every request counted in flight was counted out");
  // With turns alone the long work runs a slice at each of the short request's steps.
  assert.deepEqual(out.operation.answered, ["short", "long"]);
  assert.ok(out.operation.during > out.shortFirst.during, JSON.stringify(out));
  // The control: without a real turn the short request waits for the whole long one.
  assert.deepEqual(out.resolved.answered, ["long", "short"]);
});
