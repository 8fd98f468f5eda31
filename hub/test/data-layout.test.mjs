// The hub's data layer (hub/src/data/layout.js): every key a team's
// storage holds is in a namespace the layout lists, and a backup carries
// each namespace the layout says it carries, and no other, over an
// in-memory TeamStorage. The HTTP suite checks export and import through
// the API on both targets (backup.test.mjs, import-crash.test.mjs).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";

import { appendAudit } from "../src/audit.js";
import { checkMemories, exportLines, importedRecords, parseExport, writeImport } from "../src/backup.js";
import { BACKED_UP, LAYOUT, readBackedUp } from "../src/data/layout.js";
import { writeKey } from "../src/data/key.js";
import { writeMember } from "../src/data/member.js";
import { memoryStore } from "../src/data/memories.js";
import { recordMemory } from "../src/data/memory.js";
import { writeRevoked } from "../src/data/revoked.js";
import { createTeam } from "../src/data/team.js";
import { writeUsed } from "../src/data/used.js";
import { taskVectorCache, writeVectors } from "../src/data/vectors.js";
import { markDeleted } from "../src/deletion.js";
import { writePolicies } from "../src/policies.js";
import { count } from "../src/stats.js";
import { setExpiry, taskStore } from "../src/tasks.js";
import { mapStorage } from "./map-storage.mjs";

const TEAM = "acme";
const HASH = "a".repeat(64);

/** A team with a record in every namespace the hub writes. */
async function filledTeam() {
  const storage = mapStorage(TEAM);
  await createTeam(storage, { team: TEAM, createdAt: "2026-12-01T00:00:00.000Z" });
  await writeKey(storage, "0123456789abcdef", { id: "0123456789abcdef", member: "ada", role: "admin", label: null, createdAt: "2026-12-01T00:00:00.000Z", lastUsedAt: null, expiresAt: null, hash: HASH });
  await writeKey(storage, "1123456789abcdef", { id: "1123456789abcdef", member: "bob", role: "writer", label: "laptop", createdAt: "2026-12-01T00:00:00.000Z", lastUsedAt: null, expiresAt: "2027-01-01T00:00:00.000Z", hash: HASH });
  await writeUsed(storage, "0123456789abcdef", "2026-12-02T00:00:00.000Z");
  await writeRevoked(storage, "2123456789abcdef", { member: "bob", role: "reader", revokedAt: "2026-12-02T00:00:00.000Z" });
  await writeMember(storage, "bob", { status: "disabled", changedAt: "2026-12-03T00:00:00.000Z", changedBy: "ada" });
  await writePolicies(storage, [{ section: "Decisions", maxAgeDays: 30 }]);
  const store = memoryStore(storage, { historyDepth: 5 });
  for (const ref of [{ scope: "team", id: "plan" }, { scope: "team", id: "old" }, { scope: "user", id: "ada" }]) {
    await store.save(ref, "# Memory\n\n## Decisions\n\n- 2026-12-01: One.\n", { baseRevision: 0, actor: "ada" });
    await store.save(ref, "# Memory\n\n## Decisions\n\n- 2026-12-01: One.\n- 2026-12-02: Two.\n", { baseRevision: 1, actor: "ada" });
    await recordMemory(storage, ref);
  }
  store.free();
  await markDeleted(storage, { scope: "team", id: "old" }, { revision: 2, member: "ada", retentionDays: 30 });
  await appendAudit(storage, { member: "ada", keyId: "0123456789abcdef", action: "save", target: "team/plan", revision: 2, status: 200 }, 100);
  await count(storage, { writes: 1 });
  await taskStore(storage, { historyDepth: 5 }).save({ scope: "team", id: "todo" }, "# Task\n\n## Notes\n\n- Now.\n", { baseRevision: 0, actor: "ada" });
  await setExpiry(storage, "todo", 3600);
  // What the indexer keeps of a memory (embedding.js) and of a task memory's item, under a model id with a "/".
  const model = "@cf/baai/bge-small-en-v1.5";
  await writeVectors(storage, { scope: "team", id: "plan" }, model, "0123456789abcdef0123456789abcdef", { keys: [`${model}:0123456789abcdef:4`], vectors: Float32Array.of(1, 0, 0), dimensions: 3 });
  await taskVectorCache(storage).setMany([[`${model}:0123456789abcdef:4`, Float32Array.of(1, 0, 0)]]);
  return storage;
}

const namespaceOf = (key) => key.split("/", 1)[0];

test("every key of a team's storage is in a namespace of the layout, and each namespace says whether a backup carries it", async () => {
  const storage = await filledTeam();
  const names = LAYOUT.map((n) => n.name);
  assert.equal(new Set(names).size, names.length, "each namespace listed once");
  const held = new Set([...storage.map.keys()].map(namespaceOf));
  for (const name of held) assert.ok(names.includes(name), `${name} is listed in data/layout.js`);
  // Every namespace was written above: the check is over them all.
  assert.deepEqual([...held].sort(), [...names].sort());
  for (const n of LAYOUT) {
    assert.ok(existsSync(new URL(`../src/data/${n.module}`, import.meta.url)), `${n.name}: hub/src/data/${n.module} owns its keys`);
    const carried = typeof n.read === "function" && typeof n.entries === "function" && !n.backup.startsWith("none");
    // The team's record is the export's first line and the import's switch (team-record.js), not a batch of entries.
    assert.ok(carried || n.name === "team" || /^none: \S/.test(n.backup), `${n.name} says how a backup carries it, or why none does`);
  }
  assert.deepEqual(Object.keys(importedRecords(parseExport((await exportLines(storage, TEAM)).join("\n"), TEAM, { auditMax: 100 }))).sort(), BACKED_UP.map((n) => n.name).sort(), "an import writes each namespace a backup carries");
});

test("an export imported into an empty team writes back every namespace a backup carries, as the export read it, and no other", async () => {
  const from = await filledTeam();
  const exportedAt = "2026-12-05T00:00:00.000Z";
  const text = (await exportLines(from, TEAM, { exportedAt })).join("\n");
  const parsed = parseExport(text, TEAM, { auditMax: 100 });
  await checkMemories(parsed, 5);
  const to = mapStorage(TEAM);
  await createTeam(to, { team: TEAM, createdAt: "2026-12-01T00:00:00.000Z" });
  await writeImport(to, parsed);
  assert.equal((await exportLines(to, TEAM, { exportedAt })).join("\n"), text, "the import's export is the export");
  const read = await readBackedUp(to);
  for (const n of BACKED_UP) {
    const records = read[n.name];
    assert.ok(Array.isArray(records) ? records.length > 0 : records.size > 0, `${n.name} written back`);
  }
  const carried = new Set([...BACKED_UP.map((n) => n.name), "team"]);
  assert.deepEqual([...new Set([...to.map.keys()].map(namespaceOf))].filter((n) => !carried.has(n)), [], "no namespace a backup leaves out");
  const heads = (storage) => storage.host.keys().filter((k) => k.startsWith("memdoc/")).sort();
  assert.deepEqual(heads(to), heads(from), "the memories' records, deleted ones too");
  assert.deepEqual(to.host.keys().filter((k) => !k.startsWith("memdoc/")), [], "no task memory");
});
