// What an attacker, a careless agent or a wrong setting could do to the
// hub, against both targets started for real on 127.0.0.1 (the Worker in
// workerd, the Deno server): anonymous floods of made-up keys, the MCP
// endpoint's edges, member ids a URL resolves away, a team locking itself
// out, settings out of range, a second hub on one state, lone surrogates,
// the WebSocket subprotocols and connections kept alive after an error.
//
// Needs the global WebSocket (Node 22, or Node 20 with --experimental-websocket).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { root, startDeno, startWorkerd } from "../run.mjs";
import { client, newTeam } from "./client.mjs";
import { callTool, mcpClient } from "./mcp-client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "60", MEMDOC_HUB_BODY_LIMIT: "65536", MEMDOC_HUB_AUDIT_MAX: "50" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hardening-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: (o = {}) => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars, ...o }),
  deno: (o = {}) => startDeno({ kvPath: work, vars, ...o }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
const DOC = "## Decisions\n- 2025-03-15: Ship on Fridays";
const hex = (n) => randomBytes(n).toString("hex");
const madeUpKey = (team) => `mdk.${team}.${hex(8)}.${randomBytes(32).toString("base64url")}`;

/** Every response on one kept-alive connection to `url`, for `requests` sent back to back. */
function pipelined(url, requests, { untilClose = false, ms = untilClose ? 3000 : 10_000 } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    // The statuses of the responses received whole (Content-Length or chunked).
    const statuses = () => {
      const out = [];
      let at = 0;
      for (;;) {
        const end = text.indexOf("\r\n\r\n", at);
        if (end < 0) return out;
        const head = text.slice(at, end);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        let next;
        if (length) next = end + 4 + Number(length[1]);
        else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
          const last = text.indexOf("\r\n0\r\n\r\n", end);
          if (last < 0) return out;
          next = last + 7;
        } else next = end + 4;
        if (next > text.length) return out;
        out.push(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]));
        at = next;
      }
    };
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ statuses: statuses(), text, error: "timeout" });
    }, ms);
    socket.on("data", (d) => {
      text += d;
      if (!untilClose && statuses().length === requests.length) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ statuses: statuses(), text, error: null });
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      resolve({ statuses: statuses(), text, error: error.code });
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ statuses: statuses(), text, error: "closed" });
    });
    socket.on("connect", async () => {
      for (const r of requests) {
        socket.write(r);
        await new Promise((done) => setTimeout(done, 50));
      }
    });
    socket.on("timeout", () => reject(new Error("timeout")));
  });
}

for (const [target, start] of Object.entries(targets)) {
  describe(`hardening on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let t; // the team of this suite
    before(async () => {
      hub = await start();
      call = client(hub.url);
      const made = await newTeam(call, operator, `hard-${target}`);
      t = { ...made, writer: (await made.key("alice", "writer")).key };
    });
    after(() => hub?.stop());

    test("members named . or .. (or any id a memory cannot have) are refused wherever a member id is accepted", async () => {
      for (const member of [".", "..", ".a", "_x"]) {
        const key = await call("POST", `/v1/teams/${t.name}/keys`, { key: t.admin, body: { member, role: "writer" } });
        assert.deepEqual([key.status, key.json.code], [400, "request/invalid-member"], key.text);
        const team = await call("POST", "/v1/teams", { key: operator, body: { team: `dots-${target}`, admin: member } });
        assert.deepEqual([team.status, team.json.code], [400, "request/invalid-member"], team.text);
      }
      const fine = await call("POST", `/v1/teams/${t.name}/keys`, { key: t.admin, body: { member: "a.b.", role: "reader" } });
      assert.equal(fine.status, 201, "dots within a member id are fine");
      assert.equal((await call("GET", m(t.name, "user", "a.b."), { key: fine.json.key })).status, 200, "and that member opens its own memory");
    });

    test("the last admin key of a team cannot be revoked; the operator can mint one, audited", async () => {
      const self = await call("DELETE", `/v1/teams/${t.name}/keys/${t.adminId}`, { key: t.admin });
      assert.deepEqual([self.status, self.json.code], [409, "key/last-admin"], self.text);
      assert.equal((await call("GET", `/v1/teams/${t.name}/audit?limit=5`, { key: t.admin })).status, 200, "the admin key still works");

      const minted = await call("POST", `/v1/teams/${t.name}/keys`, { key: operator, body: { member: "rescue", role: "admin", label: "operator" } });
      assert.equal(minted.status, 201, minted.text);
      assert.equal(minted.json.role, "admin");
      // With a second admin, the first may go; then the second is the last.
      assert.equal((await call("DELETE", `/v1/teams/${t.name}/keys/${t.adminId}`, { key: minted.json.key })).status, 204);
      assert.equal((await call("GET", `/v1/teams/${t.name}/keys`, { key: t.admin })).status, 401, "revoked");
      const last = await call("DELETE", `/v1/teams/${t.name}/keys/${minted.json.id}`, { key: minted.json.key });
      assert.deepEqual([last.status, last.json.code], [409, "key/last-admin"]);
      // Revoking a writer is unaffected.
      const writer = (await call("POST", `/v1/teams/${t.name}/keys`, { key: minted.json.key, body: { member: "temp", role: "writer" } })).json;
      assert.equal((await call("DELETE", `/v1/teams/${t.name}/keys/${writer.id}`, { key: minted.json.key })).status, 204);

      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: minted.json.key });
      const mint = audit.json.entries.find((e) => e.action === "key.create" && e.target === `key/${minted.json.id}`);
      assert.deepEqual([mint?.member, mint?.keyId, mint?.status, mint?.by], [null, null, 201, "operator"]);
      assert.ok(audit.json.entries.some((e) => e.action === "key.revoke" && e.status === 409), "the refusal is audited");
      assert.ok(audit.json.entries.some((e) => e.status === 401 && e.keyId === t.adminId && e.member === "root"), "a revoked key's use is audited as its member's");

      t.admin = minted.json.key;
      const nowhere = await call("POST", `/v1/teams/no-such-team-${target}/keys`, { key: operator, body: { member: "x", role: "admin" } });
      assert.deepEqual([nowhere.status, nowhere.json.code], [404, "team/not-found"]);
      const notOperator = await call("POST", `/v1/teams/${t.name}/keys`, { key: `${operator}x`, body: { member: "x", role: "admin" } });
      assert.equal(notOperator.status, 401);
    });

    test("a JSON string with a lone surrogate is refused, not saved as U+FFFD", async () => {
      const path = m(t.name, "team", "surrogates");
      for (const body of [`{"content":"## A\\n- 2025-01-01: \\ud800"}`, `{"content":"## A\\n- 2025-01-01: \\udc00x"}`, `{"content":"ok","\\ud800":1}`]) {
        const r = await call("PUT", path, { key: t.writer, body, type: "application/json", headers: { "if-match": '"0"' } });
        assert.deepEqual([r.status, r.json.code], [400, "request/invalid-body"], `${body}: ${r.text}`);
      }
      const pair = await call("PUT", path, { key: t.writer, body: `{"content":"## A\\n- 2025-01-01: \\ud83d\\ude00"}`, type: "application/json", headers: { "if-match": '"0"' } });
      assert.equal(pair.status, 200, "a surrogate pair is text");
      assert.match(pair.json.content, /😀/);
    });

    test("a WebSocket that offers only bearer.<key> is answered with a subprotocol it offered", { timeout: 30_000 }, async () => {
      const url = `${hub.url.replace(/^http/, "ws")}${m(t.name, "team", "ws")}/events`;
      for (const protocols of [[`bearer.${t.writer}`], ["memdoc", `bearer.${t.writer}`]]) {
        const ws = new WebSocket(url, protocols);
        await new Promise((resolve, reject) => {
          ws.addEventListener("open", resolve, { once: true });
          ws.addEventListener("error", () => reject(new Error(`the handshake failed offering ${protocols[0]}`)), { once: true });
        });
        assert.equal(ws.protocol, protocols.includes("memdoc") ? "memdoc" : `bearer.${t.writer}`);
        ws.close();
      }
    });

    test("TRACE and unknown methods answer 405 with a problem", async () => {
      const answer = await pipelined(hub.url, [`TRACE ${m(t.name, "team", "x")} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
      assert.deepEqual(answer.statuses, [405], answer.text);
      assert.match(answer.text, /"code":"http\/method-not-allowed"/);
      assert.equal((await call("PATCH", "/v1/whoami", { key: t.writer, documented: false })).status, 405);
    });

    test("after an error answered before its body was read, the connection serves the next request", async () => {
      const body = "x".repeat(20_000);
      const put = (key) => `PUT ${m(t.name, "team", "keepalive")} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: text/markdown\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const next = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
      for (const first of [put("mdk.nope"), put(t.writer).replace("Content-Type: text/markdown", "Content-Type: image/png"), `POST /v1/teams HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`]) {
        const answer = await pipelined(hub.url, [first, next, next]);
        assert.equal(answer.statuses.length, 3, `${first.slice(0, 60)}: ${answer.error}\n${answer.text.slice(0, 500)}`);
        assert.ok(answer.statuses[0] >= 400);
        assert.deepEqual(answer.statuses.slice(1), [200, 200]);
      }
      // A body over the limit is not read: the connection closes after the
      // answer (Deno says Connection: close; workerd closes it by itself).
      const huge = await pipelined(hub.url, [`PUT ${m(t.name, "team", "keepalive")} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.writer}\r\nIf-Match: "0"\r\nContent-Type: text/markdown\r\nContent-Length: 70000\r\n\r\n`, next], { untilClose: true });
      assert.deepEqual(huge.statuses, [413], huge.text);
      assert.ok(huge.error === "closed" || (huge.error === "timeout" && /\r\nconnection: close\r\n/i.test(huge.text)), `closed, not reset: ${huge.error}`);
    });

    describe("MCP edges", () => {
      let mcp;
      before(async () => {
        mcp = await mcpClient(hub.url, t.writer);
        const saved = await call("PUT", m(t.name, "team", "history"), { key: t.writer, body: "## Secret\n- 2025-01-01: the memory named history", headers: { "if-match": '"0"' } });
        assert.equal(saved.status, 200, saved.text);
      });
      after(() => mcp?.close());

      test('ids "." and ".." never reach another memory; coded refusals', async () => {
        for (const [tool, args] of [
          ["memory_history", {}],
          ["memory_recall", { query: "secret" }],
          ["memory_read", {}],
          ["memory_save", { content: DOC, baseRevision: 0 }],
        ]) {
          for (const id of [".", "..", "a/b", "-x"]) {
            const r = await callTool(mcp, tool, { scope: "team", id, ...args });
            assert.equal(r.isError, true, `${tool} ${id}: ${r.text}`);
            assert.equal(r.code, "request/invalid-id", `${tool} ${id}: ${r.text}`);
            assert.match(r.text, /^request\/invalid-id: /);
            assert.doesNotMatch(r.text, /the memory named history/);
          }
          for (const id of [".", ".."]) {
            const r = await callTool(mcp, tool, { scope: "user", id, ...args });
            assert.equal(r.code, "request/invalid-member", `${tool} user ${id}: ${r.text}`);
          }
        }
        const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: t.admin });
        assert.ok(!audit.json.entries.some((e) => e.target === "team/history" && e.action !== "save"), "the memory named history was not read");
      });

      test("arguments of the wrong shape are coded tool errors", async () => {
        for (const [tool, args] of [
          ["memory_read", { scope: "team" }],
          ["memory_read", { scope: "everyone", id: "x" }],
          ["memory_save", { scope: "team", id: "x", content: 5, baseRevision: 0 }],
          ["memory_recall", { scope: "team", id: "x", query: "q", budget: -1 }],
          ["memory_history", { scope: "team", id: 7 }],
        ]) {
          const r = await callTool(mcp, tool, args);
          assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.text}`);
          assert.match(r.text, /^request\/invalid-arguments: /, r.text);
          assert.equal(r.code, "request/invalid-arguments");
        }
        const unknown = await callTool(mcp, "memory_delete", { scope: "team", id: "x" });
        assert.match(unknown.text, /^request\/[a-z-]+: /, unknown.text);
      });

      test("POST /mcp: a batch of tool calls is held to the key's rate, each call one request as over REST", async () => {
        // A team and key of its own (60 requests a minute), and more calls in one POST than that.
        const own = await newTeam(call, operator, `batch-${target}`);
        const { key } = await own.key("batcher", "writer");
        const calls = Array.from({ length: 80 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "memory_read", arguments: { scope: "team", id: "history" } } }));
        const r = await call("POST", "/mcp", { key, body: JSON.stringify(calls), type: "application/json", headers: { accept: "application/json, text/event-stream" } });
        assert.equal(r.status, 200, r.text);
        const results = r.json.map((m) => m.result);
        const codes = results.map((x) => (x.isError ? x.structuredContent.code : "ok"));
        const ok = codes.filter((c) => c === "ok").length;
        // The POST is one request, its first call's; each further call one more: at most the minute's 60 (and what refilled meanwhile).
        assert.ok(ok >= 1 && ok <= 62, `${ok} calls answered of 80`);
        assert.equal(codes.filter((c) => c === "rate/limited").length, 80 - ok, JSON.stringify(codes));
        assert.match(results.find((x) => x.isError).content[0].text, /^rate\/limited: Too many requests for this key; retry in \d+ s\.$/);
        // And the limit is the key's own: its next request over REST waits too.
        assert.equal((await call("GET", m(own.name, "team", "history"), { key })).status, 429);
      });

      test("POST /mcp: the body limit, and every HTTP-level error a problem", async () => {
        const post = (body, headers = {}) =>
          call("POST", "/mcp", { key: t.writer, body, type: "application/json", headers: { accept: "application/json, text/event-stream", ...headers } });
        const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memory_save", arguments: { scope: "team", id: "big", content: `## A\n- 2025-01-01: ${"y".repeat(300 * 1024)}`, baseRevision: 0 } } });
        const tooLarge = await post(big);
        assert.deepEqual([tooLarge.status, tooLarge.json.code, tooLarge.json.limit], [413, "http/payload-too-large", 65536], tooLarge.text);
        assert.match(tooLarge.headers.get("content-type"), /^application\/problem\+json/);
        const notRpc = await post(JSON.stringify({ hello: "world" }));
        assert.deepEqual([notRpc.status, notRpc.json.code], [400, "mcp/invalid-message"], notRpc.text);
        assert.equal((await post("{nope")).json.code, "request/malformed-json");
        assert.equal((await post('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud800"}}')).json.code, "request/invalid-body");
        const type = await call("POST", "/mcp", { key: t.writer, body: "x", type: "text/plain", headers: { accept: "application/json, text/event-stream" } });
        assert.deepEqual([type.status, type.json.code], [415, "http/unsupported-media-type"]);
        const accept = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), { accept: "text/html" });
        assert.deepEqual([accept.status, accept.json.code], [406, "http/not-acceptable"]);
        // A client that accepts JSON (or anything) is answered.
        for (const a of ["application/json", "*/*"]) {
          const ping = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), { accept: a });
          assert.equal(ping.status, 200, ping.text);
          assert.deepEqual(ping.json, { jsonrpc: "2.0", id: 1, result: {} });
        }
        assert.equal((await call("GET", m(t.name, "team", "big"), { key: t.writer })).json.revision, 0, "nothing was saved");
      });
    });

    test("settings out of range stop the start with the setting's name and range", { timeout: 120_000 }, async () => {
      const bad = { ...vars, MEMDOC_HUB_RATE_PER_MINUTE: "100000000" };
      const started = target === "workerd" ? startWorkerd({ build: join(work, "bad-build"), vars: bad }) : startDeno({ kvPath: join(work, "bad"), vars: bad });
      await assert.rejects(started, /MEMDOC_HUB_RATE_PER_MINUTE must be a whole number from 1 to 1000000, not "100000000"/);
      if (target === "deno") {
        await assert.rejects(startDeno({ kvPath: join(work, "bad"), vars: { ...vars, MEMDOC_HUB_BODY_LIMIT: "12" } }), /exited with 1[^]*MEMDOC_HUB_BODY_LIMIT must be a whole number from 1024 to 16777216/);
      }
    });

    test("a second hub on the same state refuses to start", { timeout: 120_000 }, async () => {
      const state = join(work, `state-${target}`);
      const first = target === "workerd" ? await startWorkerd({ build: join(work, "state-build"), persist: state, vars }) : await startDeno({ kvPath: state, vars });
      try {
        const second = await (target === "workerd" ? startWorkerd({ build: join(work, "state-build-2"), persist: state, vars }) : startDeno({ kvPath: state, vars })).catch((error) => error);
        if (!(second instanceof Error)) await second.stop();
        assert.match(String(second?.message), /another hub/);
        assert.equal((await fetch(`${first.url}/healthz`)).status, 200, "the first one serves on");
      } finally {
        await first.stop();
      }
      const again = target === "workerd" ? await startWorkerd({ build: join(work, "state-build"), persist: state, vars }) : await startDeno({ kvPath: state, vars });
      await again.stop();
    });

    // Last: the refusal counters of this client are spent afterwards.
    test("made-up keys: limited per client, one audit summary, real entries kept, nothing for a team that does not exist", { timeout: 120_000 }, async () => {
      const ghost = `ghost-${target}`;
      for (let i = 0; i < 3; i += 1) await call("GET", m(ghost, "team", "x"), { key: madeUpKey(ghost) });
      const presented = [];
      const statuses = [];
      for (let round = 0; round < 6; round += 1) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, () => {
            const key = madeUpKey(t.name);
            presented.push(key.split(".")[2]);
            return call("GET", m(t.name, "team", "x"), { key });
          }),
        );
        statuses.push(...batch.map((r) => `${r.status} ${r.json.code}`));
      }
      const counts = Object.fromEntries(["401 auth/invalid-key", "429 rate/limited"].map((s) => [s, statuses.filter((x) => x === s).length]));
      assert.equal(counts["401 auth/invalid-key"] + counts["429 rate/limited"], 150, statuses.join(","));
      assert.ok(counts["429 rate/limited"] >= 150 - 60 - 3, `limited per client: ${JSON.stringify(counts)}`);

      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: t.admin });
      assert.ok(audit.json.entries.some((e) => e.action === "key.create"), "real entries are kept");
      const summaries = audit.json.entries.filter((e) => e.action === "auth.unknown-key");
      assert.equal(summaries.length, 1, JSON.stringify(summaries));
      assert.equal(summaries[0].count, counts["401 auth/invalid-key"]);
      assert.ok(summaries[0].clients.every((c) => typeof c.client === "string" && c.count > 0));
      assert.match(summaries[0].summary, /^\d+ refused requests with unknown keys from /);
      assert.ok(!presented.some((id) => audit.text.includes(id)), "no made-up key id is stored");

      // The team that did not exist then has nothing in its log but its creation.
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: ghost } });
      assert.equal(made.status, 201);
      const ghostAudit = await call("GET", `/v1/teams/${ghost}/audit`, { key: made.json.key });
      assert.deepEqual(ghostAudit.json.entries.map((e) => e.action), ["team.create"]);
    });
  });
}

test("npm run hub with a setting out of range exits non-zero with its name and range", { timeout: 120_000 }, async () => {
  const env = { ...process.env, MEMDOC_HUB_STATE: join(work, "npm-state"), PORT: "0", MEMDOC_HUB_RATE_PER_MINUTE: "100000000" };
  const child = spawn("npm", ["run", "--silent", "hub"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  assert.notEqual(code, 0, out);
  assert.match(out, /MEMDOC_HUB_RATE_PER_MINUTE must be a whole number from 1 to 1000000, not "100000000"/);
  assert.doesNotMatch(out, /memdoc hub: http/);
});
