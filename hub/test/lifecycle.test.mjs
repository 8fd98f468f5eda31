// Recall and lifecycle policies over HTTP, against both targets started for
// real (the Worker in workerd, the Deno server in Deno), every answer checked
// against hub/openapi.json. The schedule runs every second here
// (MEMDOC_HUB_SWEEP_INTERVAL_SECONDS=1): a Durable Object alarm on workerd,
// the scheduled handler on Deno.
//
// Needs the global WebSocket (Node 22, or Node 20 with --experimental-websocket).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startDeno, startWorkerd } from "../run.mjs";
import { client, sleep, until } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "600", MEMDOC_HUB_SWEEP_INTERVAL_SECONDS: "1" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-lifecycle-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: work, vars }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;

// Entries of 2025-01-01 expire under a 100-year policy only when "today"
// is past 2124: the real date of the scheduled sweep never reaches them,
// an admin's ?today=2200-01-01 does.
const FAR = 36_500;
const DOC = [
  "## Open Questions",
  "- 2025-01-01: Which CDN for the docs site?",
  "- 2025-01-02: Should the release train move to Tuesdays?",
  "## Decisions",
  "- 2025-01-03: Postgres is the primary store",
  "- 2025-01-04: Deploys go out behind feature flags",
  "- 2025-01-05: The API is versioned in the path",
].join("\n");

function subscribe(base, path, key) {
  const ws = new WebSocket(base.replace(/^http/, "ws") + path, ["memdoc", `bearer.${key}`]);
  const messages = [];
  ws.addEventListener("message", (e) => messages.push(JSON.parse(e.data)));
  const opened = new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error("WebSocket failed")), { once: true });
  });
  return { ws, messages, opened };
}

for (const [target, start] of Object.entries(targets)) {
  describe(`hub lifecycle on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let t;
    before(async () => {
      hub = await start();
      call = client(hub.url);
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: `life-${target}`, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const admin = made.json.key;
      const key = async (member, role) => (await call("POST", `/v1/teams/life-${target}/keys`, { key: admin, body: { member, role } })).json.key;
      t = { name: `life-${target}`, admin, writer: await key("alice", "writer"), reader: await key("rita", "reader") };
    });
    after(() => hub?.stop());

    test("recall: the engine's Recall within the budget, for readers; coded refusals", async () => {
      const put = await call("PUT", m(t.name, "team", "recall"), { key: t.writer, body: DOC, headers: { "if-match": '"0"' } });
      assert.equal(put.status, 200, put.text);
      const r = await call("GET", `${m(t.name, "team", "recall")}/recall?q=${encodeURIComponent("postgres store")}&budget=120`, { key: t.reader });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get("etag"), '"1"');
      assert.equal(r.json.revision, 1);
      assert.ok(r.json.chars <= 120, `${r.json.chars} code points`);
      assert.equal([...r.json.content].length, r.json.chars);
      assert.equal(r.json.selected[0].text, "Postgres is the primary store");
      assert.deepEqual(r.json.selected[0].why.terms, ["postgres", "store"]);
      assert.equal(r.json.totals.items, 5);
      assert.equal(r.json.selected.length + r.json.omitted.length, 5);
      assert.equal(r.json.totals.budget, 120);
      // No query: recency and priority alone, the default budget.
      const all = await call("GET", `${m(t.name, "team", "recall")}/recall`, { key: t.reader });
      assert.equal(all.json.totals.budget, 4000);
      assert.equal(all.json.selected.length, 5);
      const bad = await call("GET", `${m(t.name, "team", "recall")}/recall?budget=0`, { key: t.reader });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.code, "options/invalid-budget");
      assert.equal((await call("GET", `${m(t.name, "team", "recall")}/recall?budget=lots`, { key: t.reader })).json.code, "request/invalid-query");
      // Another member's user memory: 404, as for every memory route.
      assert.equal((await call("GET", `${m(t.name, "user", "alice")}/recall?q=x`, { key: t.reader })).status, 404);
      assert.equal((await call("POST", `${m(t.name, "team", "recall")}/recall`, { key: t.reader, documented: false })).status, 405);
    });

    test("the prompt block of a recalled part: recalled=\"N of M\"; without ?q= or ?budget= the whole memory", async () => {
      const path = `${m(t.name, "team", "recall")}/prompt`;
      const part = await call("GET", `${path}?q=postgres&budget=120`, { key: t.reader });
      assert.equal(part.status, 200, part.text);
      const first = part.text.split("\n")[0];
      assert.match(first, /^<team_memory chars="\d+" limit="25000" recalled="\d of 5">$/);
      assert.match(part.text, /Postgres is the primary store/);
      assert.ok(Number(/recalled="(\d)/.exec(first)[1]) < 5);
      const whole = await call("GET", path, { key: t.reader });
      assert.doesNotMatch(whole.text, /recalled=/);
      assert.match(whole.text, /Which CDN/);
      const bad = await call("GET", `${path}?budget=0`, { key: t.reader });
      assert.equal(bad.json.code, "options/invalid-budget");
    });

    test("policies: admin only, validated with the engine's codes, and nothing changed by a refusal", async () => {
      const path = `/v1/teams/${t.name}/policies`;
      assert.deepEqual((await call("GET", path, { key: t.admin })).json, { policies: [] });
      assert.equal((await call("PUT", path, { key: t.writer, body: { policies: [] } })).status, 403);
      assert.equal((await call("GET", path, { key: t.reader })).status, 403);
      const invalid = await call("PUT", path, { key: t.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: -1 }] } });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.json.code, "options/invalid-policy");
      assert.equal((await call("PUT", path, { key: t.admin, body: { policies: [{ section: "", maxAgeDays: 3 }] } })).json.code, "options/invalid-policy");
      // A title of an alphabetic mark alone: refused, as the schema's pattern ([\p{L}\p{N}]) refuses it.
      assert.equal((await call("PUT", path, { key: t.admin, body: { policies: [{ section: "\u0B3E", maxAgeDays: 3 }] } })).json.code, "options/invalid-policy");
      // The policies are one stored value: a title is at most 200 characters.
      assert.equal((await call("PUT", path, { key: t.admin, body: { policies: [{ section: "A".repeat(201), maxAgeDays: 3 }] } })).json.code, "options/invalid-policy");
      assert.equal((await call("PUT", path, { key: t.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: "30" }] } })).json.code, "options/invalid");
      assert.equal((await call("PUT", path, { key: t.admin, body: { rules: [] } })).json.code, "request/invalid-body");
      assert.equal((await call("PUT", path, { key: t.admin, body: "[" , type: "application/json" })).status, 400);
      assert.deepEqual((await call("GET", path, { key: t.admin })).json, { policies: [] }, "refusals changed nothing");
      const set = await call("PUT", path, { key: t.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: FAR }] } });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual((await call("GET", path, { key: t.admin })).json, { policies: [{ section: "Open Questions", maxAgeDays: FAR }] });
      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=20`, { key: t.admin });
      const actions = audit.json.entries.filter((e) => e.action.startsWith("policies.")).map((e) => [e.action, e.status, e.member]);
      assert.deepEqual(actions[0], ["policies.set", 200, "root"]);
      assert.ok(actions.some(([action, status, member]) => action === "policies.read" && status === 403 && member === "rita"), JSON.stringify(actions));
    });

    test("an admin's sweep: exact archive, audit with counts, events, idempotent under repeats", async () => {
      const ref = m(t.name, "team", "sweep");
      assert.equal((await call("PUT", ref, { key: t.writer, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      const sub = subscribe(hub.url, `${ref}/events`, t.reader);
      await sub.opened;
      const sweepPath = `/v1/teams/${t.name}/sweep?today=2200-01-01`;
      assert.equal((await call("POST", sweepPath, { key: t.writer })).status, 403);
      const badDay = await call("POST", `/v1/teams/${t.name}/sweep?today=2200-02-30`, { key: t.admin });
      assert.equal(badDay.status, 400);
      assert.equal(badDay.json.code, "options/invalid-date");
      const swept = await call("POST", sweepPath, { key: t.admin });
      assert.equal(swept.status, 200, swept.text);
      const mine = swept.json.memories.find((x) => x.memory === "team/sweep");
      assert.deepEqual(mine, { memory: "team/sweep", status: "swept", revision: 2, archived: 2 });
      assert.equal(swept.json.today, "2200-01-01");
      const loaded = await call("GET", ref, { key: t.reader });
      assert.equal(loaded.json.revision, 2);
      assert.doesNotMatch(loaded.json.content, /CDN|Tuesdays/);
      assert.match(loaded.json.content, /## Open Questions/);
      assert.match(loaded.json.content, /Postgres is the primary store/);
      const history = await call("GET", `${ref}/history`, { key: t.reader });
      assert.deepEqual(history.json.entries[0].archived.map((e) => e.text), ["Which CDN for the docs site?", "Should the release train move to Tuesdays?"]);
      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: t.admin });
      const sweeps = audit.json.entries.filter((e) => e.action === "sweep" && e.target === "team/sweep" && e.status === 200);
      const audited = audit.json.entries.filter((e) => e.action === "sweep" && e.status === 200).length;
      assert.equal(sweeps.length, 1);
      assert.equal(sweeps[0].archived, 2);
      assert.equal(sweeps[0].member, "root");
      await until("the swept revision's event", () => sub.messages.some((e) => e.revision === 2));
      sub.ws.close();
      // Again, and twice at once: nothing expires, nothing is written.
      const again = await Promise.all([call("POST", sweepPath, { key: t.admin }), call("POST", sweepPath, { key: t.admin })]);
      for (const r of again) {
        assert.equal(r.status, 200);
        assert.equal(r.json.swept, 0);
        assert.deepEqual(r.json.memories.find((x) => x.memory === "team/sweep"), { memory: "team/sweep", status: "unchanged", revision: 2, archived: 0 });
      }
      assert.equal((await call("GET", ref, { key: t.reader })).json.revision, 2);
      const after = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: t.admin });
      assert.equal(after.json.entries.filter((e) => e.action === "sweep" && e.status === 200).length, audited, "no audit entry for a sweep that found nothing");
      // User memories are not swept.
      const own = m(t.name, "user", "alice");
      assert.equal((await call("PUT", own, { key: t.writer, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      await call("POST", sweepPath, { key: t.admin });
      assert.equal((await call("GET", own, { key: t.writer })).json.revision, 1);
    });

    test("the schedule sweeps by itself with today's date", async () => {
      const path = `/v1/teams/${t.name}/policies`;
      const ref = m(t.name, "team", "scheduled");
      assert.equal((await call("PUT", ref, { key: t.writer, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      const set = await call("PUT", path, { key: t.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: 30 }] } });
      assert.equal(set.status, 200);
      const swept = await until("a scheduled sweep", async () => {
        const got = await call("GET", ref, { key: t.reader });
        return got.json.revision === 2 && got.json;
      });
      assert.doesNotMatch(swept.content, /CDN|Tuesdays/);
      const history = await call("GET", `${ref}/history`, { key: t.reader });
      assert.equal(history.json.entries[0].actor, "memdoc-sweeper");
      const audit = await call("GET", `/v1/teams/${t.name}/audit?limit=50`, { key: t.admin });
      const entry = audit.json.entries.find((e) => e.action === "sweep" && e.target === "team/scheduled");
      assert.deepEqual([entry.member, entry.keyId, entry.archived, entry.revision], [null, null, 2, 2]);
      // Later runs find nothing: the revision stays.
      await sleep(2500);
      assert.equal((await call("GET", ref, { key: t.reader })).json.revision, 2);
      // No policies, no sweeps.
      assert.equal((await call("PUT", path, { key: t.admin, body: { policies: [] } })).status, 200);
    });
  });
}
