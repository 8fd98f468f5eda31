// Deleting and restoring over HTTP, against both targets started for real
// (the Worker in workerd, the Deno server in Deno), every answer checked
// against hub/openapi.json: a team deleted by the operator, memories deleted,
// listed, restored and purged (by an admin, by a member for their own user
// memory, by the scheduled sweep after the retention), and the races of a
// delete with a save and of a restore with a purge.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { hubConfig } from "../src/settings.js";
import { startDeno, startWorkerd } from "../run.mjs";
import { client, until } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "6000" };
// A second hub of each target purges what is deleted at its next sweep, every second.
const purging = { ...vars, MEMDOC_HUB_DELETED_RETENTION_DAYS: "0", MEMDOC_HUB_SWEEP_INTERVAL_SECONDS: "1" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-deletion-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: (v = vars, name = "workerd-build") => startWorkerd({ build: join(work, name), persist: false, vars: v }),
  deno: (v = vars, name = "kv") => startDeno({ kvPath: join(work, name), vars: v }),
};

const m = (team, scope, id) => `/v1/teams/${team}/memories/${scope}/${id}`;
// As stored: the engine keeps no trailing newline.
const DOC = "## Decisions\n- 2025-01-03: Postgres is the primary store";
const DOC2 = `${DOC}\n- 2025-01-04: Deploys go out behind feature flags`;

test("MEMDOC_HUB_DELETED_RETENTION_DAYS is checked at start: 0 to 3650, default 30", () => {
  assert.equal(hubConfig({}).deletedRetentionDays, 30);
  assert.equal(hubConfig({ MEMDOC_HUB_DELETED_RETENTION_DAYS: "0" }).deletedRetentionDays, 0);
  for (const bad of ["-1", "3651", "1.5", "soon"]) {
    assert.throws(() => hubConfig({ MEMDOC_HUB_DELETED_RETENTION_DAYS: bad }), /MEMDOC_HUB_DELETED_RETENTION_DAYS must be a whole number from 0 to 3650/);
  }
});

for (const [target, start] of Object.entries(targets)) {
  describe(`hub deletion on ${target}`, { concurrency: false }, () => {
    let hub;
    let call;
    let short;
    const teams = [];
    /** A new team with an admin, a writer and a reader (on the short-retention hub with `on`). */
    async function team(prefix, on = call) {
      const call = on;
      const name = `${prefix}-${target}-${teams.length}`;
      teams.push(name);
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: name, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const admin = made.json.key;
      const key = async (member, role) => (await call("POST", `/v1/teams/${name}/keys`, { key: admin, body: { member, role } })).json.key;
      return { name, admin, writer: await key("alice", "writer"), reader: await key("rita", "reader") };
    }
    before(async () => {
      hub = await start();
      call = client(hub.url);
    });
    after(() => hub?.stop());
    after(() => short?.stop());

    const save = (key, path, body, revision) => call("PUT", path, { key, body, headers: { "if-match": `"${revision}"` } });

    test("DELETE {m} (admin) hides a team memory, keeps it for restore, and POST {m}/restore brings it back with its history", async () => {
      const t = await team("del");
      const eng = m(t.name, "team", "eng");
      assert.equal((await save(t.writer, eng, DOC, 0)).status, 200);
      assert.equal((await save(t.writer, eng, DOC2, 1)).status, 200);

      const writer = await call("DELETE", eng, { key: t.writer, headers: { "if-match": '"2"' } });
      assert.equal(writer.status, 403, "a team memory is deleted by an admin");
      const missing = await call("DELETE", eng, { key: t.admin });
      assert.equal(missing.status, 428);
      const stale = await call("DELETE", eng, { key: t.admin, headers: { "if-match": '"1"' } });
      assert.equal(stale.status, 412);
      assert.equal(stale.json.currentRevision, 2);
      assert.equal((await call("DELETE", m(t.name, "team", "never"), { key: t.admin, headers: { "if-match": '"0"' } })).status, 404);
      assert.equal((await call("GET", eng, { key: t.reader })).status, 200, "refusals changed nothing");

      assert.equal((await call("DELETE", eng, { key: t.admin, headers: { "if-match": '"2"' } })).status, 204);
      for (const path of [eng, `${eng}/history`, `${eng}/revisions/1`, `${eng}/recall`, `${eng}/prompt`]) {
        const r = await call("GET", path, { key: t.admin });
        assert.equal(r.status, 404, path);
        assert.equal(r.json.code, "memory/not-found", path);
      }
      const saved = await save(t.writer, eng, DOC, 2);
      assert.equal(saved.status, 409);
      assert.equal(saved.json.code, "memory/deleted");
      const reverted = await call("POST", `${eng}/revert`, { key: t.writer, body: { revision: 1 }, headers: { "if-match": '"2"' } });
      assert.equal(reverted.status, 409);
      assert.equal(reverted.json.code, "memory/deleted");
      assert.equal((await call("DELETE", eng, { key: t.admin, headers: { "if-match": '"2"' } })).status, 404, "deleted once");
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/memories`, { key: t.admin })).json.memories, []);

      const listed = (await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories;
      assert.equal(listed.length, 1);
      const [d] = listed;
      assert.deepEqual([d.scope, d.id, d.revision, d.deletedBy], ["team", "eng", 2, "root"]);
      assert.equal(Date.parse(d.purgeAfter) - Date.parse(d.deletedAt), 30 * 86_400_000, "kept 30 days by default");
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.reader })).json.memories, [], "a member sees only their own user memory");

      assert.equal((await call("POST", `${eng}/restore`, { key: t.writer })).status, 403);
      const restored = await call("POST", `${eng}/restore`, { key: t.admin });
      assert.equal(restored.status, 200);
      assert.deepEqual(restored.json, { revision: 2, content: DOC2 });
      const history = (await call("GET", `${eng}/history`, { key: t.reader })).json.entries;
      assert.deepEqual(history.map((e) => e.revision), [2, 1], "history intact");
      assert.equal((await call("GET", `${eng}/revisions/1`, { key: t.reader })).json.content, DOC);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/memories`, { key: t.admin })).json.memories, [{ scope: "team", id: "eng" }]);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories, []);
      const again = await call("POST", `${eng}/restore`, { key: t.admin });
      assert.equal(again.status, 409);
      assert.equal(again.json.code, "memory/not-deleted");
      assert.equal((await call("POST", `${m(t.name, "team", "never")}/restore`, { key: t.admin })).status, 404);
      assert.equal((await save(t.writer, eng, DOC, 2)).json.revision, 3, "saves go on from the restored revision");

      const audit = (await call("GET", `/v1/teams/${t.name}/audit?limit=1000`, { key: t.admin })).json.entries;
      const steps = audit.filter((e) => ["delete", "restore"].includes(e.action) && e.target === "team/eng").reverse().map((e) => `${e.action} ${e.member} ${e.status}`);
      assert.deepEqual(steps, ["delete alice 403", "delete root 428", "delete root 412", "delete root 204", "delete root 404", "restore alice 403", "restore root 200", "restore root 409"]);
      assert.ok(audit.some((e) => e.action === "save" && e.status === 409), "the refused save is audited");
    });

    test("a member deletes, restores and purges their own user memory; nobody else sees it", async () => {
      const t = await team("user");
      const mine = m(t.name, "user", "alice");
      assert.equal((await save(t.writer, mine, DOC, 0)).status, 200);
      assert.equal((await call("DELETE", mine, { key: t.admin, headers: { "if-match": '"1"' } })).status, 404, "an admin cannot reach another member's memory");
      assert.equal((await call("DELETE", mine, { key: t.writer, headers: { "if-match": '"1"' } })).status, 204);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories, [], "nor list it");
      const own = (await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.writer })).json.memories;
      assert.deepEqual(own.map((d) => [d.scope, d.id, d.revision, d.deletedBy]), [["user", "alice", 1, "alice"]]);
      assert.equal((await call("GET", mine, { key: t.writer })).status, 404);
      assert.deepEqual((await call("POST", `${mine}/restore`, { key: t.writer })).json, { revision: 1, content: DOC });

      // "Forget me": gone at once, content and history.
      assert.equal((await call("DELETE", `${mine}?purge=true`, { key: t.writer })).status, 428);
      assert.equal((await call("DELETE", `${mine}?purge=true`, { key: t.writer, headers: { "if-match": '"1"' } })).status, 204);
      const after = await call("GET", mine, { key: t.writer });
      assert.equal(after.status, 200);
      assert.deepEqual([after.json.revision, after.json.content], [0, ""]);
      assert.equal((await call("GET", `${mine}/revisions/1`, { key: t.writer })).status, 404);
      assert.equal((await call("POST", `${mine}/restore`, { key: t.writer })).status, 404);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.writer })).json.memories, []);
      assert.equal((await call("DELETE", `${mine}?purge=maybe`, { key: t.writer })).status, 400);
      const audit = (await call("GET", `/v1/teams/${t.name}/audit`, { key: t.admin })).json.entries;
      assert.ok(audit.some((e) => e.action === "purge" && e.member === "alice" && e.status === 204 && e.target === "user/alice"));
    });

    test("DELETE {m}?purge=true (admin) removes a deleted team memory at once; the id starts again", async () => {
      const t = await team("purge");
      const eng = m(t.name, "team", "eng");
      await save(t.writer, eng, DOC, 0);
      await save(t.writer, eng, DOC2, 1);
      assert.equal((await call("DELETE", eng, { key: t.admin, headers: { "if-match": '"2"' } })).status, 204);
      assert.equal((await call("DELETE", `${eng}?purge=true`, { key: t.writer, headers: { "if-match": '"2"' } })).status, 403);
      assert.equal((await call("DELETE", `${eng}?purge=true`, { key: t.admin })).status, 428);
      assert.equal((await call("DELETE", `${eng}?purge=true`, { key: t.admin, headers: { "if-match": '"1"' } })).status, 412, "a deleted memory is at the revision it was deleted at");
      assert.equal((await call("DELETE", `${eng}?purge=true`, { key: t.admin, headers: { "if-match": '"2"' } })).status, 204);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories, []);
      assert.equal((await call("POST", `${eng}/restore`, { key: t.admin })).status, 404);
      assert.equal((await call("GET", eng, { key: t.reader })).json.revision, 0);
      assert.equal((await call("GET", `${eng}/revisions/2`, { key: t.reader })).status, 404);
      const fresh = await save(t.writer, eng, DOC, 0);
      assert.equal(fresh.status, 200);
      assert.equal(fresh.json.revision, 1);
      assert.deepEqual((await call("GET", `${eng}/history`, { key: t.reader })).json.entries.map((e) => e.revision), [1]);
    });

    test("a delete racing a save: one of them wins, and what the winner answered holds", async () => {
      const t = await team("race");
      const eng = m(t.name, "team", "eng");
      let revision = (await save(t.writer, eng, DOC, 0)).json.revision;
      for (let round = 0; round < 12; round += 1) {
        const content = `${DOC}\n- 2025-02-${String(round + 1).padStart(2, "0")}: round ${round}`;
        const [s, d] = await Promise.all([save(t.writer, eng, content, revision), call("DELETE", eng, { key: t.admin, headers: { "if-match": `"${revision}"` } })]);
        if (s.status === 200) {
          assert.equal(d.status, 412, "the save won: the delete named an old revision");
          const now = await call("GET", eng, { key: t.reader });
          assert.deepEqual([now.json.revision, now.json.content], [s.json.revision, content]);
          revision = s.json.revision;
        } else {
          assert.equal(d.status, 204, `the delete won: ${s.status} ${d.status}`);
          assert.equal(s.status, 409);
          assert.equal(s.json.code, "memory/deleted");
          const listed = (await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories;
          assert.equal(listed[0].revision, revision, "deleted at the revision it named");
          const back = await call("POST", `${eng}/restore`, { key: t.admin });
          assert.equal(back.json.revision, revision, "nothing was written after the delete");
        }
      }
    });

    test("a restore racing a purge: the memory is restored whole then purged, or purged and not restorable; never half of either", async () => {
      const t = await team("race2");
      const eng = m(t.name, "team", "eng");
      for (let round = 0; round < 10; round += 1) {
        const made = await save(t.writer, eng, DOC, 0);
        assert.equal(made.status, 200, made.text);
        assert.equal((await call("DELETE", eng, { key: t.admin, headers: { "if-match": '"1"' } })).status, 204);
        const [r, p] = await Promise.all([call("POST", `${eng}/restore`, { key: t.admin }), call("DELETE", `${eng}?purge=true`, { key: t.admin, headers: { "if-match": '"1"' } })]);
        if (r.status === 200) {
          // Restored first, with its history, then purged (live, at the same revision).
          assert.deepEqual(r.json, { revision: 1, content: DOC });
          assert.equal(p.status, 204);
        } else {
          assert.deepEqual([r.status, p.status], [404, 204], "purged first: nothing to restore");
        }
        assert.equal((await call("GET", eng, { key: t.reader })).json.revision, 0, "gone whole");
        assert.equal((await call("GET", `${eng}/revisions/1`, { key: t.reader })).status, 404);
        assert.deepEqual((await call("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories, []);
      }
    });

    test("the scheduled sweep purges a deleted memory after MEMDOC_HUB_DELETED_RETENTION_DAYS (0 here), audited", async () => {
      short = await start(purging, `${target}-purging`);
      const on = client(short.url);
      const t = await team("sweep", on);
      const eng = m(t.name, "team", "eng");
      assert.equal((await on("PUT", eng, { key: t.writer, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      assert.equal((await on("DELETE", eng, { key: t.admin, headers: { "if-match": '"1"' } })).status, 204);
      await until("the purge", async () => (await on("GET", `/v1/teams/${t.name}/deleted`, { key: t.admin })).json.memories.length === 0);
      assert.equal((await on("POST", `${eng}/restore`, { key: t.admin })).status, 404);
      assert.equal((await on("GET", `${eng}/revisions/1`, { key: t.reader })).status, 404);
      const audit = (await on("GET", `/v1/teams/${t.name}/audit`, { key: t.admin })).json.entries;
      const purge = audit.find((e) => e.action === "purge");
      assert.deepEqual([purge.member, purge.target, purge.revision, purge.status, purge.by], [null, "team/eng", 1, 204, "sweep"]);
    });

    test("DELETE /v1/teams/{team} (operator) removes the team and everything in it; the id can be created again", async () => {
      const t = await team("gone");
      assert.equal((await call("PUT", m(t.name, "team", "eng"), { key: t.writer, body: DOC, headers: { "if-match": '"0"' } })).status, 200);
      assert.equal((await call("PUT", `/v1/teams/${t.name}/policies`, { key: t.admin, body: { policies: [{ section: "Decisions", maxAgeDays: 30 }] } })).status, 200);
      // Not without the operator token.
      const missing = await call("DELETE", `/v1/teams/${t.name}`);
      assert.equal(missing.status, 401);
      assert.equal(missing.json.code, "auth/missing-key");
      const admin = await call("DELETE", `/v1/teams/${t.name}`, { key: t.admin });
      assert.equal(admin.status, 401);
      assert.equal(admin.json.code, "auth/invalid-key");
      assert.equal((await call("GET", m(t.name, "team", "eng"), { key: t.reader })).status, 200);

      assert.equal((await call("DELETE", `/v1/teams/${t.name}`, { key: operator })).status, 204);
      for (const key of [t.admin, t.writer, t.reader]) {
        const r = await call("GET", m(t.name, "team", "eng"), { key });
        assert.equal(r.status, 401, "the team's keys are gone with it");
        assert.equal(r.json.code, "auth/invalid-key");
      }
      const again = await call("DELETE", `/v1/teams/${t.name}`, { key: operator });
      assert.equal(again.status, 404);
      assert.equal(again.json.code, "team/not-found");
      assert.equal((await call("DELETE", "/v1/teams/never-made", { key: operator })).status, 404);

      // Created again: empty, with a new first admin key.
      const made = await call("POST", "/v1/teams", { key: operator, body: { team: t.name, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const fresh = await call("GET", m(t.name, "team", "eng"), { key: made.json.key });
      assert.equal(fresh.status, 200);
      assert.equal(fresh.json.revision, 0, "no memory of the deleted team survives");
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/policies`, { key: made.json.key })).json.policies, []);
      assert.deepEqual((await call("GET", `/v1/teams/${t.name}/memories`, { key: made.json.key })).json.memories, []);
      const audit = (await call("GET", `/v1/teams/${t.name}/audit`, { key: made.json.key })).json.entries;
      assert.deepEqual(audit.map((e) => e.action), ["read", "team.create"], "the audit started again with the team");
    });
  });
}
