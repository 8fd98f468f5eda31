// `memdoc hub` against the real hub: the Worker bundled by wrangler in
// workerd (hub/run.mjs, as `npm run hub` serves it), for both front ends.
// Each front end works on its own memory through the same steps; their
// outputs are compared with the memory's id and the times taken out.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startWorkerd } from "../hub/run.mjs";
import { frontEnds, hubCall, runAsync } from "./cli-helpers.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-cli-hub-"));
const operator = randomBytes(24).toString("base64url");
let hub;
let keys;
after(async () => {
  await hub?.stop();
  rmSync(work, { recursive: true, force: true });
});

const call = (method, path, key, body, headers) => hubCall(hub.url, method, path, key, body, headers);

before(async () => {
  hub = await startWorkerd({ build: join(work, "build"), persist: false, vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator } });
  const made = await call("POST", "/v1/teams", operator, { team: "acme", admin: "root" });
  assert.equal(made.status, 201);
  const key = async (member, role) => (await call("POST", "/v1/teams/acme/keys", made.json.key, { member, role })).json.key;
  keys = { alice: await key("alice", "writer"), bob: await key("bob", "writer"), rita: await key("rita", "reader") };
});

const DOC = "## Decisions\n- 2025-03-01: Use Postgres\n\n## Notes\nThe office is in Oslo\n";

/** Every step, run with front end `prefix` on the memory `id`: the outputs in order. */
async function steps(prefix, id) {
  const dir = mkdtempSync(join(work, `${id}-`));
  const env = { MEMDOC_HUB_URL: `${hub.url}/`, MEMDOC_HUB_KEY: keys.alice };
  const memdoc = (args, o = {}) => runAsync(prefix, args, { cwd: dir, env: { ...env, ...o.env } });
  const file = (name) => readFileSync(join(dir, name), "utf8");
  const out = {};

  // A memory never saved does not exist for pull: an error, and no file.
  out.pullNew = await memdoc(["hub", "pull", "acme", "team", id, "-o", "M.md"]);
  assert.deepEqual([out.pullNew.stdout, out.pullNew.status], ["", 3]);
  assert.match(out.pullNew.stderr, /^memdoc: hub: memory\/not-found: this memory has never been saved; to make it, write a file and `memdoc hub push FILE TEAM SCOPE ID --revision 0`\n$/);
  assert.ok(!existsSync(join(dir, "M.md")), "a failed pull writes no file");

  writeFileSync(join(dir, "M.md"), DOC);
  out.push1 = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "0"]);
  assert.deepEqual([out.push1.stdout, out.push1.stderr, out.push1.status], ["1\n", "memdoc: M.md: saved as revision 1\n", 0]);

  // Bob saves revision 2 meanwhile.
  const bob = await call("PUT", `/v1/teams/acme/memories/team/${id}`, keys.bob, DOC.replace("Postgres\n", "Postgres\n- 2025-03-02: Ship on Fridays\n"), { "if-match": '"1"' });
  assert.equal(bob.status, 200);

  writeFileSync(join(dir, "M.md"), DOC.replace("Postgres\n", "Postgres\n- 2025-03-03: Freeze in December\n"));
  out.stale = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "1"]);
  assert.equal(out.stale.status, 1);
  assert.match(out.stale.stderr, /^memdoc: hub: http\/precondition-failed: M\.md was edited from revision 1, but bob saved revision 2 at \d{4}-\d\d-\d\dT[^ ]+ since; merge with `memdoc hub push M\.md acme team \S+ --revision 1 --merge`/);

  out.merged = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "1", "--merge"]);
  assert.equal(out.merged.status, 0, out.merged.stderr);
  assert.equal(out.merged.stdout, "3\n");
  assert.match(out.merged.stderr, /^memdoc: M\.md: saved as revision 3\nmemdoc: M\.md: .*[Mm]erged.*\nmemdoc: M\.md: now holds revision 3 as the hub saved it\n$/);
  assert.match(file("M.md"), /Ship on Fridays\n- 2025-03-03: Freeze in December\n/);

  out.pull = await memdoc(["hub", "pull", "acme", "team", id]);
  assert.deepEqual([out.pull.stdout, out.pull.stderr], [file("M.md"), "memdoc: revision 3\n"]);

  out.history = await memdoc(["hub", "history", "acme", "team", id]);
  const lines = out.history.stdout.trimEnd().split("\n");
  assert.deepEqual(lines.map((l) => l.split("\t")[0]), ["3", "2", "1"]);
  assert.deepEqual(lines.map((l) => l.split("\t")[2]), ["alice", "bob", "alice"]);

  // Refusals: one line each, with the hub's code and a non-zero exit.
  writeFileSync(join(dir, "P.md"), "## Preferences\n- 2025-01-01: dark mode\n");
  out.rejected = await memdoc(["hub", "push", "P.md", "acme", "team", id, "--revision", "3"]);
  assert.equal(out.rejected.status, 1);
  // With each diagnostic where it is, as the hub gave them, errors first.
  assert.match(out.rejected.stderr, /^memdoc: hub: save\/rejected: .*; fix scope\/personal-heading \(below\)\nmemdoc: P\.md:1:1: error scope\/personal-heading: `## Preferences` is a personal heading, .*\nmemdoc: P\.md:1:1: {3}help: .+\nmemdoc: P\.md:1:1: warning diff\/section-removed: /);
  out.forbidden = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "3"], { env: { MEMDOC_HUB_KEY: keys.rita } });
  assert.equal(out.forbidden.status, 3);
  assert.match(out.forbidden.stderr, /^memdoc: hub: auth\/forbidden: .*; this key's role may not do this\n$/);
  out.badKey = await memdoc(["hub", "pull", "acme", "team", id], { env: { MEMDOC_HUB_KEY: "mdk.acme.0000000000000000.nope" } });
  assert.equal(out.badKey.status, 3);
  assert.match(out.badKey.stderr, /^memdoc: hub: auth\/invalid-key: .*; check MEMDOC_HUB_KEY/);
  out.notFound = await memdoc(["hub", "pull", "acme", "user", "bob"]);
  assert.equal(out.notFound.status, 3);
  assert.match(out.notFound.stderr, /^memdoc: hub: memory\/not-found: /);
  out.badRevision = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "01"]);
  assert.equal(out.badRevision.status, 2);

  // A merge the hub cannot make: both rewrite the same note.
  writeFileSync(join(dir, "M.md"), file("M.md").replace("in Oslo", "in Bergen"));
  const moved = await call("PUT", `/v1/teams/acme/memories/team/${id}`, keys.bob, file("M.md").replace("in Bergen", "in Lisbon"), { "if-match": '"3"' });
  assert.equal(moved.status, 200);
  out.conflict = await memdoc(["hub", "push", "M.md", "acme", "team", id, "--revision", "3", "--merge"]);
  assert.equal(out.conflict.status, 1);
  assert.match(out.conflict.stderr, /^memdoc: hub: store\/conflict: .*; both edits changed "Notes" differently: pull the memory, merge with memdoc merge, and push again\n$/);
  return out;
}

/** Export and import a team of its own, `exp-NAME`, with front end `prefix`: the outputs in order. */
async function backup(prefix, team) {
  const dir = mkdtempSync(join(work, `${team}-`));
  const made = await call("POST", "/v1/teams", operator, { team, admin: "root" });
  assert.equal(made.status, 201);
  const admin = made.json.key;
  const writer = (await call("POST", `/v1/teams/${team}/keys`, admin, { member: "alice", role: "writer" })).json.key;
  assert.equal((await call("PUT", `/v1/teams/${team}/memories/team/notes`, writer, DOC, { "if-match": '"0"' })).status, 200);
  const env = { MEMDOC_HUB_URL: hub.url, MEMDOC_HUB_KEY: admin, MEMDOC_HUB_OPERATOR_TOKEN: operator };
  const memdoc = (args, o = {}) => runAsync(prefix, args, { cwd: dir, env: { ...env, ...o.env } });
  const file = (name) => readFileSync(join(dir, name), "utf8");
  const out = {};

  out.export = await memdoc(["hub", "export", team, "-o", "T.ndjson"]);
  assert.equal(out.export.status, 0, out.export.stderr);
  assert.equal(out.export.stdout, "");
  assert.equal(out.export.stderr, `memdoc: exported team ${team}: members 2, keys 2, policies 0, memories 1, revisions 1, deleted 0, audit 3\n`);
  const exported = file("T.ndjson");
  // It holds the keys' hashes: readable by its owner alone, also a file that was there.
  assert.equal(statSync(join(dir, "T.ndjson")).mode & 0o777, 0o600);
  writeFileSync(join(dir, "U.ndjson"), "", { mode: 0o644 });
  assert.equal((await memdoc(["hub", "export", team, "-o", "U.ndjson"])).status, 0);
  assert.equal(statSync(join(dir, "U.ndjson")).mode & 0o777, 0o600);
  assert.match(exported, new RegExp(`^\\{"format":"memdoc-team/1","team":"${team}"`));
  assert.ok(!exported.includes(admin) && !exported.includes(writer), "an export holds no key's secret");

  const toStdout = await memdoc(["hub", "export", team]);
  assert.equal(toStdout.status, 0, toStdout.stderr);
  assert.match(toStdout.stdout, /^\{"format":"memdoc-team\/1"/);
  // Two more audit records: the first export's and the second's.
  assert.equal(toStdout.stdout.split("\n").length, exported.split("\n").length + 2);
  out.exportToStdout = { stderr: toStdout.stderr, status: toStdout.status };

  out.exportByWriter = await memdoc(["hub", "export", team], { env: { MEMDOC_HUB_KEY: writer } });
  assert.equal(out.exportByWriter.status, 3);
  assert.match(out.exportByWriter.stderr, /^memdoc: hub: auth\/forbidden: .*; this key's role may not do this\n$/);

  out.noToken = await memdoc(["hub", "import", "T.ndjson", team], { env: { MEMDOC_HUB_OPERATOR_TOKEN: undefined } });
  assert.equal(out.noToken.status, 2);
  assert.equal(out.noToken.stderr, "memdoc: MEMDOC_HUB_OPERATOR_TOKEN is not set: set it to the hub's operator token (in the environment, never on the command line)\n");
  out.wrongToken = await memdoc(["hub", "import", "T.ndjson", team], { env: { MEMDOC_HUB_OPERATOR_TOKEN: admin } });
  assert.equal(out.wrongToken.status, 3);
  assert.match(out.wrongToken.stderr, /^memdoc: hub: auth\/invalid-key: .*; check MEMDOC_HUB_OPERATOR_TOKEN /);

  out.exists = await memdoc(["hub", "import", "T.ndjson", team]);
  assert.equal(out.exists.status, 1);
  assert.match(out.exists.stderr, /^memdoc: hub: team\/exists: .*; an import makes a new team: delete the team first/);

  assert.equal((await call("DELETE", `/v1/teams/${team}`, operator)).status, 204);

  // A refused import: the third line broken; nothing is written.
  const lines = exported.split("\n");
  lines[2] = lines[2].slice(0, -1);
  writeFileSync(join(dir, "bad.ndjson"), lines.join("\n"));
  out.invalid = await memdoc(["hub", "import", "bad.ndjson", team]);
  assert.equal(out.invalid.status, 1);
  assert.match(out.invalid.stderr, /^memdoc: hub: import\/invalid: Line 3 of the export: .*; nothing was imported/);
  assert.equal((await call("GET", `/v1/teams/${team}/memories/team/notes`, writer)).status, 401);

  out.import = await memdoc(["hub", "import", "T.ndjson", team]);
  assert.equal(out.import.status, 0, out.import.stderr);
  assert.equal(out.import.stdout, `imported T.ndjson as team ${team}: members 2, keys 2, policies 0, memories 1, revisions 1, deleted 0, audit 3\n`);
  assert.equal(out.import.stderr, "");

  // The team is back, its keys working.
  out.pull = await memdoc(["hub", "pull", team, "team", "notes"], { env: { MEMDOC_HUB_KEY: writer } });
  assert.deepEqual([out.pull.stdout, out.pull.stderr, out.pull.status], [DOC, "memdoc: revision 1\n", 0]);
  return out;
}

describe("memdoc hub against the hub in workerd", () => {
  test("export, import into the team deleted, and the refusals, the same from both front ends", async () => {
    const results = [];
    for (const [name, prefix] of frontEnds()) results.push(await backup(prefix, `exp-${name}`));
    const same = (o, name) => JSON.parse(JSON.stringify(o).replaceAll(`exp-${name}`, "TEAM"));
    assert.deepEqual(same(results[1], "npm"), same(results[0], "rust"));
  });

  test("pull, push, a stale push, --merge, history and the refusals, the same from both front ends", async () => {
    const results = [];
    for (const [name, prefix] of frontEnds()) results.push(await steps(prefix, `notes-${name}`));
    const same = (o, name) => JSON.parse(JSON.stringify(o).replaceAll(`notes-${name}`, "ID").replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "TIME"));
    assert.deepEqual(same(results[1], "npm"), same(results[0], "rust"));
  });
});
