// Members and the life of keys (docs/HUB.md, "Members and keys") on both
// targets started for real: the list of members, disabling and enabling a
// member, keys that expire, keys rotated with a grace period, and the team
// never left without an active admin key. Every answer is checked against
// hub/openapi.json.
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
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-members-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: work, vars }),
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const user = (team, member) => `/v1/teams/${team}/memories/user/${member}`;

for (const [target, start] of Object.entries(targets)) {
  describe(`hub members and keys on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let t;
    /** A key made by the admin (a new member), or `by` another (the operator, for an existing member). */
    const key = async (member, role, more = {}, by = t.admin) => {
      const made = await call("POST", `/v1/teams/${t.name}/keys`, { key: by, body: { member, role, ...more } });
      assert.equal(made.status, 201, made.text);
      return made.json;
    };
    before(async () => {
      hub = await start();
      call = client(hub.url);
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: `members-${target}`, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      t = { name: `members-${target}`, admin: made.json.key, adminId: made.json.keyId };
    });
    after(() => hub?.stop());

    test("members: each with status, key ids and last use; admin only", async () => {
      const alice = await key("alice", "writer");
      await key("alice", "reader", { label: "second" }, operator);
      const bob = await key("bob", "reader");
      assert.equal((await call("GET", "/v1/whoami", { key: alice.key })).status, 200);
      const list = await call("GET", `/v1/teams/${t.name}/members`, { key: t.admin });
      assert.equal(list.status, 200, list.text);
      const byName = Object.fromEntries(list.json.members.map((m) => [m.member, m]));
      assert.deepEqual(Object.keys(byName), ["alice", "bob", "root"]);
      assert.equal(byName.alice.keys.length, 2);
      assert.ok(byName.alice.keys.includes(alice.id));
      assert.equal(byName.alice.status, "active");
      assert.match(byName.alice.lastUsedAt, /^\d{4}-\d\d-\d\dT/);
      assert.equal(byName.bob.lastUsedAt, null);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/members`, { key: bob.key })).json.code, "auth/forbidden");
      assert.equal((await call("GET", `/v1/teams/other-${target}/members`, { key: t.admin })).status, 404);
    });

    test("a disabled member's every key is refused at once; the user memory is kept; active again, it works", async () => {
      const carol = await key("carol", "writer");
      const carol2 = await key("carol", "reader", {}, operator);
      const put = await call("PUT", user(t.name, "carol"), { key: carol.key, body: "## Notes\n- 2025-01-31: carol's note", headers: { "if-match": '"0"' } });
      assert.equal(put.status, 200, put.text);
      const off = await call("PATCH", `/v1/teams/${t.name}/members/carol`, { key: t.admin, body: { status: "disabled" } });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.json.status, "disabled");
      for (const k of [carol.key, carol2.key]) {
        const refused = await call("GET", user(t.name, "carol"), { key: k });
        assert.deepEqual([refused.status, refused.json.code], [401, "auth/member-disabled"]);
      }
      assert.equal((await call("GET", "/v1/whoami", { key: carol.key })).json.code, "auth/member-disabled");
      const listed = (await call("GET", `/v1/teams/${t.name}/members`, { key: t.admin })).json.members.find((m) => m.member === "carol");
      assert.equal(listed.status, "disabled");
      const audit = (await call("GET", `/v1/teams/${t.name}/audit?limit=10`, { key: t.admin })).json.entries;
      assert.ok(audit.some((e) => e.member === "carol" && e.status === 401), "the refusal is audited as carol's");
      assert.ok(audit.some((e) => e.action === "member.status" && e.target === "member/carol" && e.status === 200));
      const on = await call("PATCH", `/v1/teams/${t.name}/members/carol`, { key: t.admin, body: { status: "active" } });
      assert.equal(on.json.status, "active");
      const back = await call("GET", user(t.name, "carol"), { key: carol.key });
      assert.equal(back.status, 200);
      assert.match(back.json.content, /- 2025-01-31: carol's note/);
    });

    test("member requests: coded refusals that change nothing", async () => {
      const path = `/v1/teams/${t.name}/members`;
      assert.equal((await call("PATCH", `${path}/nobody`, { key: t.admin, body: { status: "disabled" } })).json.code, "member/not-found");
      assert.equal((await call("PATCH", `${path}/bob`, { key: t.admin, body: { status: "gone" } })).json.code, "request/invalid-body");
      assert.equal((await call("PATCH", `${path}/bob`, { key: t.admin, body: "[", type: "application/json" })).status, 400);
      const writer = await key("dave", "writer");
      assert.equal((await call("PATCH", `${path}/bob`, { key: writer.key, body: { status: "disabled" } })).json.code, "auth/forbidden");
      assert.equal((await call("POST", `${path}/bob`, { key: t.admin, documented: false })).status, 405);
      assert.equal((await call("GET", path, { key: t.admin })).json.members.find((m) => m.member === "bob").status, "active");
    });

    test("the team keeps an active admin: the last one's member cannot be disabled, nor its key revoked", async () => {
      const self = await call("PATCH", `/v1/teams/${t.name}/members/root`, { key: t.admin, body: { status: "disabled" } });
      assert.deepEqual([self.status, self.json.code], [409, "member/last-admin"], self.text);
      const second = await key("erin", "admin");
      // erin disabled: root's key is again the last active admin key.
      assert.equal((await call("PATCH", `/v1/teams/${t.name}/members/erin`, { key: t.admin, body: { status: "disabled" } })).status, 200);
      assert.equal((await call("DELETE", `/v1/teams/${t.name}/keys/${t.adminId}`, { key: t.admin })).json.code, "key/last-admin");
      assert.equal((await call("PATCH", `/v1/teams/${t.name}/members/root`, { key: t.admin, body: { status: "disabled" } })).json.code, "member/last-admin");
      assert.equal((await call("PATCH", `/v1/teams/${t.name}/members/erin`, { key: t.admin, body: { status: "active" } })).status, 200);
      assert.equal((await call("GET", "/v1/whoami", { key: second.key })).status, 200);
    });

    test("an existing member's keys are made by the operator (or rotated by the member), never by another admin: their user memory stays theirs", async () => {
      const kim = await key("kim", "writer");
      assert.equal((await call("PUT", user(t.name, "kim"), { key: kim.key, body: "## Notes\n- 2025-02-01: kim's own", headers: { "if-match": '"0"' } })).status, 200);
      const refused = await call("POST", `/v1/teams/${t.name}/keys`, { key: t.admin, body: { member: "kim", role: "writer" } });
      assert.deepEqual([refused.status, refused.json.code], [403, "auth/forbidden"], refused.text);
      const audit = (await call("GET", `/v1/teams/${t.name}/audit?limit=5`, { key: t.admin })).json.entries;
      assert.ok(audit.some((e) => e.action === "key.create" && e.status === 403), "the refusal is audited");
      assert.equal((await call("GET", `/v1/teams/${t.name}/members`, { key: t.admin })).json.members.find((m) => m.member === "kim").keys.length, 1, "no key was made");
      // The admin's own keys, and the operator's for anyone.
      assert.equal((await call("POST", `/v1/teams/${t.name}/keys`, { key: t.admin, body: { member: "root", role: "reader" } })).status, 201);
      const again = await key("kim", "reader", {}, operator);
      assert.equal((await call("GET", user(t.name, "kim"), { key: again.key })).json.content, "## Notes\n- 2025-02-01: kim's own");
    });

    test("a key with expiresAt works until then, then 401 auth/key-expired; past or malformed instants are refused", async () => {
      const at = new Date(Date.now() + 2000).toISOString();
      const temp = await key("frank", "reader", { expiresAt: at });
      assert.equal(temp.expiresAt, at);
      assert.equal((await call("GET", "/v1/whoami", { key: temp.key })).status, 200);
      const listed = (await call("GET", `/v1/teams/${t.name}/keys`, { key: t.admin })).json.keys.find((k) => k.id === temp.id);
      assert.equal(listed.expiresAt, at);
      await sleep(Date.parse(at) - Date.now() + 300);
      const late = await call("GET", "/v1/whoami", { key: temp.key });
      assert.deepEqual([late.status, late.json.code], [401, "auth/key-expired"]);
      for (const expiresAt of ["2001-01-01T00:00:00Z", "tomorrow", "2099-01-01", 5, "2099-02-30T00:00:00Z", "2099-01-01T24:00:00Z", "2099-01-01T23:60:00Z", "2099-01-01T00:00:00+24:00"]) {
        const bad = await call("POST", `/v1/teams/${t.name}/keys`, { key: t.admin, body: { member: "x", role: "reader", expiresAt } });
        assert.deepEqual([bad.status, bad.json.code], [400, "request/invalid-body"], String(expiresAt));
      }
      const offset = await key("gina", "reader", { expiresAt: "2999-12-31T23:00:00+02:00" });
      assert.equal(offset.expiresAt, "2999-12-31T21:00:00.000Z");
    });

    test("rotate: a new key for the same member and role; the old one works until the grace ends", async () => {
      const old = await key("hank", "writer", { label: "ci" });
      // Another member's key is rotated by that member alone: an admin's rotation would hand the admin hank's key.
      const byAdmin = await call("POST", `/v1/teams/${t.name}/keys/${old.id}/rotate`, { key: t.admin, body: { graceSeconds: 2 } });
      assert.deepEqual([byAdmin.status, byAdmin.json.code], [403, "auth/forbidden"]);
      const rotated = await call("POST", `/v1/teams/${t.name}/keys/${old.id}/rotate`, { key: old.key, body: { graceSeconds: 2 } });
      assert.equal(rotated.status, 201, rotated.text);
      assert.deepEqual([rotated.json.member, rotated.json.role, rotated.json.label], ["hank", "writer", "ci"]);
      assert.notEqual(rotated.json.id, old.id);
      assert.equal(rotated.json.rotated.id, old.id);
      const who = await call("GET", "/v1/whoami", { key: rotated.json.key });
      assert.deepEqual([who.json.member, who.json.role], ["hank", "writer"]);
      assert.equal((await call("GET", "/v1/whoami", { key: old.key })).status, 200, "the old key works in the grace");
      await sleep(Date.parse(rotated.json.rotated.expiresAt) - Date.now() + 300);
      assert.equal((await call("GET", "/v1/whoami", { key: old.key })).json.code, "auth/key-expired");
      assert.equal((await call("GET", "/v1/whoami", { key: rotated.json.key })).status, 200);
      // No grace: the old key ends at once. The admin's own key rotates too, and the team keeps an admin.
      const now = await call("POST", `/v1/teams/${t.name}/keys/${t.adminId}/rotate`, { key: t.admin, body: { graceSeconds: 0 } });
      assert.equal(now.status, 201, now.text);
      assert.equal((await call("GET", "/v1/whoami", { key: t.admin })).json.code, "auth/key-expired");
      t.admin = now.json.key;
      t.adminId = now.json.id;
      assert.equal((await call("GET", `/v1/teams/${t.name}/members`, { key: t.admin })).status, 200);
      const path = `/v1/teams/${t.name}/keys`;
      assert.equal((await call("POST", `${path}/0123456789abcdef/rotate`, { key: t.admin, body: { graceSeconds: 1 } })).json.code, "key/not-found");
      for (const graceSeconds of [-1, 1.5, "60", 2_592_001]) {
        assert.equal((await call("POST", `${path}/${t.adminId}/rotate`, { key: t.admin, body: { graceSeconds } })).json.code, "request/invalid-body");
      }
      assert.equal((await call("POST", `${path}/${t.adminId}/rotate`, { key: rotated.json.key, body: { graceSeconds: 1 } })).json.code, "auth/forbidden");
    });

    test("an export carries a disabled member and a key's expiry; the imported team refuses them alike", async () => {
      const ivan = await key("ivan", "writer");
      const later = await key("judy", "reader", { expiresAt: "2999-01-01T00:00:00Z" });
      assert.equal((await call("PATCH", `/v1/teams/${t.name}/members/ivan`, { key: t.admin, body: { status: "disabled" } })).status, 200);
      const exported = await call("GET", `/v1/teams/${t.name}/export`, { key: t.admin });
      assert.equal(exported.status, 200);
      const records = exported.text.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(records.find((r) => r.type === "member" && r.member === "ivan"), { type: "member", member: "ivan", status: "disabled" });
      assert.equal(records.find((r) => r.type === "key" && r.id === later.id).expiresAt, "2999-01-01T00:00:00.000Z");
      assert.equal((await call("DELETE", `/v1/teams/${t.name}`, { key: operator })).status, 204);
      const imported = await call("POST", `/v1/teams/${t.name}/import`, { key: operator, body: exported.text, type: "application/x-ndjson" });
      assert.equal(imported.status, 201, imported.text);
      assert.equal((await call("GET", "/v1/whoami", { key: ivan.key })).json.code, "auth/member-disabled");
      const keys = (await call("GET", `/v1/teams/${t.name}/keys`, { key: t.admin })).json.keys;
      assert.equal(keys.find((k) => k.id === later.id).expiresAt, "2999-01-01T00:00:00.000Z");
      assert.equal((await call("GET", `/v1/teams/${t.name}/members`, { key: t.admin })).json.members.find((m) => m.member === "ivan").status, "disabled");
    });
  });
}
