// Backup and restore of a team over HTTP: an export from the Worker in
// workerd imported into the Deno server and back, exported again byte for
// byte equal (apart from exportedAt, the audit records of the exports and
// imports themselves, and the last use of the key that made the export),
// its keys working on either; refused imports that write nothing; and an
// import racing the creation of the same team. Every answer is checked
// against hub/openapi.json.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startDeno, startWorkerd } from "../run.mjs";
import { client } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "6000" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-backup-"));
after(() => rmSync(work, { recursive: true, force: true }));

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
const NDJSON = "application/x-ndjson";

/** The export's lines without what legitimately differs between two exports of the same team. */
function comparable(text, exportingKeyId) {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((r) => !(r.type === "audit" && ["team.export", "team.import"].includes(r.entry.action)))
    .map((r) => {
      if (r.format) return { ...r, exportedAt: null };
      if (r.type === "key" && r.id === exportingKeyId) return { ...r, lastUsedAt: null };
      return r;
    })
    .map((r) => JSON.stringify(r));
}

describe("hub backup and restore, workerd and Deno", { concurrency: false }, () => {
  let workerd;
  let deno;
  let w;
  let d;
  before(async () => {
    [workerd, deno] = await Promise.all([startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }), startDeno({ kvPath: join(work, "kv"), vars })]);
    w = client(workerd.url);
    d = client(deno.url);
  });
  after(() => Promise.all([workerd?.stop(), deno?.stop()]));

  const T = "backup";
  let t;
  let original;

  test("GET /v1/teams/{team}/export (admin): NDJSON of the team's members, keys (no secrets), policies, memories with their revisions, deleted memories and audit", async () => {
    const made = await w("POST", "/v1/teams", { key: operator, body: { team: T, admin: "root" } });
    const admin = made.json.key;
    const key = async (member, role) => (await w("POST", `/v1/teams/${T}/keys`, { key: admin, body: { member, role, label: `${member}'s` } })).json;
    const writer = await key("alice", "writer");
    const reader = await key("rita", "reader");
    const gone = await key("gus", "writer");
    assert.equal((await w("DELETE", `/v1/teams/${T}/keys/${gone.id}`, { key: admin })).status, 204);
    assert.equal((await w("PUT", `/v1/teams/${T}/policies`, { key: admin, body: { policies: [{ section: "Open Questions", maxAgeDays: 30 }] } })).status, 200);
    const save = (path, body, revision) => w("PUT", path, { key: writer.key, body, headers: { "if-match": `"${revision}"` } });
    let text = "## Decisions\n- 2025-01-03: Postgres is the primary store";
    for (let r = 0; r < 3; r += 1) {
      assert.equal((await save(m(T, "team", "eng"), text, r)).status, 200);
      text += `\n- 2025-01-0${r + 4}: decision ${r} — ünïcödé 🚀`;
    }
    assert.equal((await save(m(T, "team", "ops"), "## Runbooks\n- 2025-02-01: restart with care", 0)).status, 200);
    assert.equal((await save(m(T, "user", "alice"), "## Preferences\n- 2025-03-01: short answers", 0)).status, 200);
    assert.equal((await w("DELETE", m(T, "team", "ops"), { key: admin, headers: { "if-match": '"1"' } })).status, 204);
    t = { admin, adminId: made.json.keyId, writer, reader, gone };

    assert.equal((await w("GET", `/v1/teams/${T}/export`, { key: writer.key })).status, 403);
    // The full backup, every user memory with it, is the operator's.
    const exported = await w("GET", `/v1/teams/${T}/export`, { key: operator });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get("content-type"), /^application\/x-ndjson/);
    original = exported.text;
    const records = original.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(Object.keys(records[0]), ["format", "team", "exportedAt", "createdAt"]);
    assert.equal(records[0].format, "memdoc-team/1");
    assert.equal(records[0].team, T);
    const of = (type) => records.filter((r) => r.type === type);
    assert.deepEqual(of("member").map((r) => r.member), ["alice", "gus", "rita", "root"]);
    assert.equal(of("key").length, 4);
    assert.ok(of("key").find((k) => k.id === gone.id).revokedAt, "a revoked key is kept by its id");
    assert.match(of("key").find((k) => k.id === writer.id).hash, /^[a-f0-9]{64}$/);
    for (const secret of [admin, writer.key, reader.key, gone.key, operator]) assert.ok(!original.includes(secret.split(".").at(-1)), "never a secret");
    assert.deepEqual(of("policy"), [{ type: "policy", section: "Open Questions", maxAgeDays: 30 }]);
    assert.deepEqual(of("memory").map((r) => `${r.scope}/${r.id}`), ["team/eng", "team/ops", "user/alice"]);
    assert.deepEqual(of("revision").filter((r) => r.id === "eng").map((r) => r.revision), [3, 2, 1]);
    assert.deepEqual(of("deleted").map((r) => [r.scope, r.id, r.revision, r.deletedBy]), [["team", "ops", 1, "root"]]);
    assert.ok(of("audit").some((r) => r.entry.action === "team.create"));
    assert.deepEqual([...new Set(records.slice(1).map((r) => r.type))], ["member", "key", "policy", "memory", "revision", "deleted", "audit"]);

    // The admin's own user memory, for the admin's exports below.
    assert.equal((await w("PUT", m(T, "user", "root"), { key: admin, body: "## Preferences\n- 2025-03-02: root's own", headers: { "if-match": '"0"' } })).status, 200);
    original = (await w("GET", `/v1/teams/${T}/export`, { key: operator })).text;
  });

  test("POST /v1/teams/{team}/import refuses a malformed or inconsistent export whole (422 with the first bad line), and anything but the operator", async () => {
    const lines = original.trimEnd().split("\n");
    const refused = async (body, line) => {
      const r = await d("POST", `/v1/teams/${T}/import`, { key: operator, body, type: NDJSON });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.code, "import/invalid");
      assert.equal(r.json.line, line, r.json.detail);
    };
    const broken = [...lines];
    broken[4] = broken[4].slice(0, -3);
    await refused(broken.join("\n"), 5);
    const eng = lines.findIndex((l) => l.includes('"type":"memory"') && l.includes('"id":"eng"'));
    const noRevision = lines.filter((l, i) => !(i > eng && l.includes('"type":"revision"') && l.includes('"revision":2')));
    await refused(noRevision.join("\n"), eng + 1);
    const orphanKey = lines.filter((l) => !l.includes('"member":"rita"') || !l.includes('"type":"member"'));
    await refused(orphanKey.join("\n"), orphanKey.findIndex((l) => l.includes('"type":"key"') && l.includes('"member":"rita"')) + 1);
    await refused(lines.map((l, i) => (i === 0 ? l.replace(`"team":"${T}"`, '"team":"other"') : l)).join("\n"), 1);
    await refused([...lines, '{"type":"mystery"}'].join("\n"), lines.length + 1);
    await refused("", 1);

    const wrongType = await d("POST", `/v1/teams/${T}/import`, { key: operator, body: original, type: "text/plain" });
    assert.equal(wrongType.status, 415);
    assert.equal((await d("POST", `/v1/teams/${T}/import`, { key: t.admin, body: original, type: NDJSON })).status, 401);
    assert.equal((await d("POST", `/v1/teams/${T}/import`, { body: original, type: NDJSON })).status, 401);
    // Nothing was written: the team does not exist on Deno.
    assert.equal((await d("GET", m(T, "team", "eng"), { key: t.admin })).status, 401);
    const exists = await w("POST", `/v1/teams/${T}/import`, { key: operator, body: original, type: NDJSON });
    assert.equal(exists.status, 409, "the team exists on workerd");
    assert.equal(exists.json.code, "team/exists");
  });

  test("workerd → Deno → workerd: each import exports again equal to the original, and its keys keep working", async () => {
    const toDeno = await d("POST", `/v1/teams/${T}/import`, { key: operator, body: original, type: NDJSON });
    assert.equal(toDeno.status, 201, toDeno.text);
    assert.deepEqual({ ...toDeno.json, audit: null }, { team: T, members: 4, keys: 4, policies: 1, memories: 4, revisions: 6, deleted: 1, audit: null });
    const fromDeno = (await d("GET", `/v1/teams/${T}/export`, { key: operator })).text;
    assert.deepEqual(comparable(fromDeno, t.adminId), comparable(original, t.adminId));

    assert.equal((await w("DELETE", `/v1/teams/${T}`, { key: operator })).status, 204);
    const back = await w("POST", `/v1/teams/${T}/import`, { key: operator, body: fromDeno, type: NDJSON });
    assert.equal(back.status, 201, back.text);
    const again = (await w("GET", `/v1/teams/${T}/export`, { key: operator })).text;
    assert.deepEqual(comparable(again, t.adminId), comparable(original, t.adminId));

    for (const [name, call] of [["deno", d], ["workerd", w]]) {
      const read = await call("GET", m(T, "team", "eng"), { key: t.reader.key });
      assert.equal(read.status, 200, name);
      assert.equal(read.json.revision, 3, name);
      assert.deepEqual((await call("GET", `${m(T, "team", "eng")}/history`, { key: t.reader.key })).json.entries.map((e) => e.revision), [3, 2, 1], name);
      assert.equal((await call("GET", m(T, "user", "alice"), { key: t.writer.key })).json.content, "## Preferences\n- 2025-03-01: short answers", name);
      const saved = await call("PUT", m(T, "team", "eng"), { key: t.writer.key, body: `${read.json.content}\n- 2025-05-01: saved on ${name}`, headers: { "if-match": '"3"' } });
      assert.equal(saved.status, 200, `${name}: ${saved.text}`);
      assert.equal(saved.json.revision, 4, name);
      assert.equal((await call("GET", m(T, "team", "ops"), { key: t.admin })).status, 404, `${name}: still deleted`);
      assert.deepEqual((await call("POST", `${m(T, "team", "ops")}/restore`, { key: t.admin })).json.revision, 1, `${name}: restorable`);
      assert.equal((await call("GET", m(T, "team", "eng"), { key: t.gone.key })).status, 401, `${name}: a revoked key stays revoked`);
      assert.deepEqual((await call("GET", `/v1/teams/${T}/policies`, { key: t.admin })).json.policies, [{ section: "Open Questions", maxAgeDays: 30 }], name);
      // An admin's export: the team's memories and the admin's own user memory, no other member's.
      const byAdmin = (await call("GET", `/v1/teams/${T}/export`, { key: t.admin })).text.trimEnd().split("\n").map((l) => JSON.parse(l));
      const user = byAdmin.filter((r) => ["memory", "revision", "deleted"].includes(r.type) && r.scope === "user").map((r) => `${r.type} ${r.id}`);
      assert.deepEqual(user, ["memory root", "revision root"], `${name}: the admin's export holds the admin's own user memory only`);
      assert.ok(!JSON.stringify(byAdmin).includes("short answers"), `${name}: never another member's user memory`);
      assert.deepEqual(byAdmin.filter((r) => r.type === "memory" && r.scope === "team").map((r) => r.id), ["eng", "ops"], name);
      const audit = (await call("GET", `/v1/teams/${T}/audit?limit=1000`, { key: t.admin })).json.entries;
      assert.ok(audit.some((e) => e.action === "team.import" && e.by === "operator" && e.status === 201), `${name}: the import is audited`);
    }
  });

  test("every kind of record the hub would not have written is 422 with its line, and writes nothing, on workerd and Deno", async () => {
    const lines = original.trimEnd().split("\n");
    const at = (pred) => lines.findIndex((l) => pred(JSON.parse(l)));
    /** The export with line `i`'s record changed by `change`. */
    const edit = (i, change) => lines.map((l, j) => (j === i ? JSON.stringify(change(JSON.parse(l))) : l));
    const withHead = (change) => (r) => ({ ...r, head: JSON.stringify(change(JSON.parse(r.head))) });
    const eng = at((r) => r.type === "memory" && r.id === "eng");
    const eng2 = at((r) => r.type === "revision" && r.id === "eng" && r.revision === 2);
    const key = at((r) => r.type === "key" && !r.revokedAt);
    const policy = at((r) => r.type === "policy");
    const audit = at((r) => r.type === "audit");
    const deleted = at((r) => r.type === "deleted");
    const big = `## Facts\n- 2025-01-01: ${"x".repeat(64_010)}`;
    const cases = [
      ["a head of another format", edit(eng, withHead((h) => ({ ...h, format: "memdoc/9" }))), eng],
      ["a head with an unknown field", edit(eng, withHead((h) => ({ ...h, extra: 1 }))), eng],
      ["a head whose content is not a string", edit(eng, withHead((h) => ({ ...h, content: 5 }))), eng],
      ["a head over the hard limit", edit(eng, withHead((h) => ({ ...h, content: big, audit: [{ ...h.audit[0], chars: [...big].length }, ...h.audit.slice(1)] }))), eng],
      ["a snapshot the store does not read", edit(eng2, (r) => ({ ...r, value: JSON.stringify({ ...JSON.parse(r.value), content: 7 }) })), eng2],
      ["a snapshot of another revision", edit(eng2, (r) => ({ ...r, value: JSON.stringify({ ...JSON.parse(r.value), revision: 1 }) })), eng2],
      ["an impossible date", edit(key, (r) => ({ ...r, createdAt: "2099-02-30T00:00:00Z" })), key],
      ["a date at 24:00", edit(deleted, (r) => ({ ...r, purgeAfter: "2099-01-01T24:00:00Z" })), deleted],
      ["a policy the policies route refuses (a title of 100,000 characters: over Deno KV's value)", edit(policy, (r) => ({ ...r, section: "A".repeat(100_000) })), policy],
      ["101 policies", [...lines.slice(0, policy + 1), ...Array.from({ length: 100 }, (_, i) => JSON.stringify({ type: "policy", section: `S${i}`, maxAgeDays: 1 })), ...lines.slice(policy + 1)], policy + 100],
      ["an audit entry from the future", edit(audit, (r) => ({ ...r, seq: "99999999999999999-abcd" })), audit],
      ["an audit entry of 3 MB", edit(audit, (r) => ({ ...r, entry: { ...r.entry, pad: "y".repeat(3_000_000) } })), audit],
      ["more audit entries than the hub keeps", [...lines, ...Array.from({ length: 1001 }, (_, i) => JSON.stringify({ type: "audit", seq: `00000000000000001-${i.toString(16).padStart(4, "0")}`, entry: { action: "x" } }))], null],
    ];
    for (const [name, call] of [["workerd", w], ["deno", d]]) {
      assert.equal((await call("DELETE", `/v1/teams/${T}`, { key: operator })).status, 204, name);
      for (const [what, body, index] of cases) {
        const r = await call("POST", `/v1/teams/${T}/import`, { key: operator, body: body.join("\n"), type: NDJSON });
        assert.equal(r.status, 422, `${name}, ${what}: ${r.text.slice(0, 300)}`);
        assert.equal(r.json.code, "import/invalid", `${name}, ${what}`);
        if (index !== null) assert.equal(r.json.line, index + 1, `${name}, ${what}: ${r.json.detail.slice(0, 300)}`);
        assert.equal((await call("GET", `/v1/teams/${T}/memories`, { key: t.admin })).status, 401, `${name}, ${what}: nothing written`);
      }
      const whole = await call("POST", `/v1/teams/${T}/import`, { key: operator, body: original, type: NDJSON });
      assert.equal(whole.status, 201, `${name}: ${whole.text}`);
    }
  });

  test("an import racing the creation of the same team: one of them makes the team, the other is 409 and writes nothing", async () => {
    const R = "backup-race";
    const made = await w("POST", "/v1/teams", { key: operator, body: { team: R, admin: "root" } });
    await w("PUT", m(R, "team", "eng"), { key: made.json.key, body: "## Decisions\n- 2025-01-03: one", headers: { "if-match": '"0"' } });
    const exported = (await w("GET", `/v1/teams/${R}/export`, { key: made.json.key })).text;
    for (const [name, call] of [["workerd", w], ["deno", d]]) {
      for (let round = 0; round < 4; round += 1) {
        if (name === "workerd" || round > 0) assert.equal((await call("DELETE", `/v1/teams/${R}`, { key: operator })).status, 204);
        const [created, imported] = await Promise.all([call("POST", "/v1/teams", { key: operator, body: { team: R, admin: "other" } }), call("POST", `/v1/teams/${R}/import`, { key: operator, body: exported, type: NDJSON })]);
        const statuses = [created.status, imported.status].sort();
        assert.deepEqual(statuses, [201, 409], `${name}: ${created.text} ${imported.text}`);
        const viaImport = await call("GET", m(R, "team", "eng"), { key: made.json.key });
        if (imported.status === 201) {
          assert.equal(viaImport.status, 200, name);
          assert.equal(viaImport.json.revision, 1, name);
          assert.equal((await call("GET", m(R, "team", "eng"), { key: created.json?.key ?? "none" })).status, 401, `${name}: the refused creation left no key`);
        } else {
          assert.equal(viaImport.status, 401, `${name}: the refused import left no key`);
          assert.equal((await call("GET", m(R, "team", "eng"), { key: created.json.key })).json.revision, 0, `${name}: and no memory`);
        }
      }
    }
  });
});
