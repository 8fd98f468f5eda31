// `memdoc hub team|key|member …` against the real hub (the Worker bundled
// by wrangler in workerd, hub/run.mjs), for both front ends: each makes its
// own team and goes through the same steps; every key is then tried on the
// hub, so each step is checked by what the hub does, not only by what was
// printed. The two front ends' outputs are compared with ids and secrets
// taken out.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { startWorkerd } from "../hub/run.mjs";
import { frontEnds, runAsync } from "./cli-helpers.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-cli-hub-admin-"));
const operator = randomBytes(24).toString("base64url");
let hub;
after(async () => {
  await hub?.stop();
  rmSync(work, { recursive: true, force: true });
});
before(async () => {
  hub = await startWorkerd({ build: join(work, "build"), persist: false, vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator } });
});

/** The status of `GET /v1/whoami` with `key`, and who it says. */
async function whoami(key) {
  const response = await fetch(`${hub.url}/v1/whoami`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, who: response.ok ? await response.json() : null };
}

async function steps(prefix, team) {
  const memdoc = (args, env) => runAsync(prefix, ["hub", ...args], { cwd: work, env: { MEMDOC_HUB_URL: hub.url, MEMDOC_HUB_KEY: undefined, MEMDOC_HUB_OPERATOR_TOKEN: undefined, ...env } });
  const out = {};

  out.create = await memdoc(["team", "create", team, "--admin", "root"], { MEMDOC_HUB_OPERATOR_TOKEN: operator });
  assert.equal(out.create.status, 0, out.create.stderr);
  const admin = out.create.stdout.trim();
  assert.match(out.create.stderr, new RegExp(`^memdoc: made team ${team}; admin key \\S+ of member root; its secret is on standard output, shown this once\\n$`));
  assert.deepEqual((await whoami(admin)).who, { team, member: "root", role: "admin", keyId: (await whoami(admin)).who.keyId });

  out.again = await memdoc(["team", "create", team], { MEMDOC_HUB_OPERATOR_TOKEN: operator });
  assert.equal(out.again.status, 3);
  assert.match(out.again.stderr, /^memdoc: hub: team\/exists: .*; choose another team id\n$/);
  out.noToken = await memdoc(["team", "create", `${team}-x`], { MEMDOC_HUB_KEY: admin });
  assert.equal(out.noToken.status, 2);
  assert.match(out.noToken.stderr, /MEMDOC_HUB_OPERATOR_TOKEN is not set/);

  const asAdmin = { MEMDOC_HUB_KEY: admin };
  out.key = await memdoc(["key", "create", team, "alice", "--role", "writer", "--label", "laptop"], asAdmin);
  assert.equal(out.key.status, 0, out.key.stderr);
  const alice = out.key.stdout.trim();
  assert.match(out.key.stderr, /^memdoc: made key \S+ of member alice, role writer; its secret is on standard output, shown this once\n$/);
  const aliceId = (await whoami(alice)).who.keyId;
  assert.equal((await whoami(alice)).who.role, "writer");

  // A usage error is each parser's own text (clap's, cli.js's).
  const noRole = await memdoc(["key", "create", team, "bob"], asAdmin);
  assert.equal(noRole.status, 2);
  assert.match(noRole.stderr, /--role/);
  out.badGrace = await memdoc(["key", "rotate", team, aliceId, "--grace", "soon"], asAdmin);
  assert.deepEqual([out.badGrace.status, out.badGrace.stderr], [2, 'memdoc: invalid --grace "soon": expected the whole number of seconds the old key keeps working (0: it stops at once)\n']);

  // A member rotates their own key (an admin's key may not: it would open their user memory).
  out.rotateByAdmin = await memdoc(["key", "rotate", team, aliceId, "--grace", "0"], asAdmin);
  assert.equal(out.rotateByAdmin.status, 3);
  assert.match(out.rotateByAdmin.stderr, /^memdoc: hub: auth\/forbidden: /);
  out.rotate = await memdoc(["key", "rotate", team, aliceId, "--grace", "0"], { MEMDOC_HUB_KEY: alice });
  assert.equal(out.rotate.status, 0, out.rotate.stderr);
  const rotated = out.rotate.stdout.trim();
  assert.match(out.rotate.stderr, new RegExp(`^memdoc: key \\S+ of member alice replaces key ${aliceId}, which works until \\S+; its secret`));
  assert.equal((await whoami(alice)).status, 401, "the old key stops at once with no grace");
  assert.equal((await whoami(rotated)).who.member, "alice");

  out.disable = await memdoc(["member", "disable", team, "alice"], asAdmin);
  assert.deepEqual([out.disable.status, out.disable.stdout], [0, `member alice of team ${team}: disabled\n`]);
  assert.equal((await whoami(rotated)).status, 401);
  out.enable = await memdoc(["member", "enable", team, "alice"], asAdmin);
  assert.deepEqual([out.enable.status, out.enable.stdout], [0, `member alice of team ${team}: active\n`]);
  assert.equal((await whoami(rotated)).status, 200);
  out.lastAdmin = await memdoc(["member", "disable", team, "root"], asAdmin);
  assert.equal(out.lastAdmin.status, 3);
  assert.match(out.lastAdmin.stderr, /^memdoc: hub: member\/last-admin: /);
  out.writer = await memdoc(["member", "disable", team, "root"], { MEMDOC_HUB_KEY: rotated });
  assert.equal(out.writer.status, 3);
  assert.match(out.writer.stderr, /^memdoc: hub: auth\/forbidden: .*; this key's role may not do this\n$/);

  const rotatedId = (await whoami(rotated)).who.keyId;
  out.revoke = await memdoc(["key", "revoke", team, rotatedId], asAdmin);
  assert.deepEqual([out.revoke.status, out.revoke.stdout], [0, `revoked key ${rotatedId} of team ${team}\n`]);
  assert.equal((await whoami(rotated)).status, 401);
  out.revokeLast = await memdoc(["key", "revoke", team, (await whoami(admin)).who.keyId], asAdmin);
  assert.equal(out.revokeLast.status, 3);
  assert.match(out.revokeLast.stderr, /^memdoc: hub: key\/last-admin: /);
  const adminId = (await whoami(admin)).who.keyId;
  return { out, named: { [team]: "TEAM", [admin]: "ADMIN", [adminId]: "ADMIN_ID", [alice]: "ALICE", [aliceId]: "ALICE_ID", [rotated]: "ROTATED", [rotatedId]: "ROTATED_ID" } };
}

test("memdoc hub team create, key create|revoke|rotate, member disable|enable: both front ends, the same outputs", { timeout: 240_000 }, async () => {
  const [[, rust], [, npm]] = frontEnds();
  const ids = [`rust-${randomBytes(3).toString("hex")}`, `npm-${randomBytes(3).toString("hex")}`];
  const outputs = [await steps(rust, ids[0]), await steps(npm, ids[1])];
  // Secrets, ids and times differ by nature; the rest is the same text.
  const plain = ({ out, named }) => {
    let text = JSON.stringify(out).replace(/until [^;]+;/g, "until T;");
    // Longest first: a key's secret holds its team and id.
    for (const [value, name] of Object.entries(named).sort(([a], [b]) => b.length - a.length)) text = text.replaceAll(value, name);
    return JSON.parse(text);
  };
  assert.deepEqual(plain(outputs[1]), plain(outputs[0]));
});
