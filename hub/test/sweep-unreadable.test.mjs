// A memory the store cannot read never breaks its team (docs/HUB.md,
// "Routes" and "Delete and restore"), over an in-memory TeamStorage and the
// real engine: the sweep skips it and reports the store's code, and the
// memories after it are still swept; a purge deletes its raw records
// without loading it, and never a key outside the memory. (An import
// refuses such a head; this is storage gone bad by other means.) A team
// recall skips it and reports it, and recalls the others.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MemoryStore } from "memdoc";

import { purgeMemory, storedRevision } from "../src/deletion.js";
import { createHub } from "../src/app.js";
import { recordMemory } from "../src/directory.js";
import { sweepTeam } from "../src/lifecycle.js";
import { mapStorage } from "./map-storage.mjs";

test("the sweep skips and reports an unreadable memory, and sweeps the others", async () => {
  const storage = mapStorage();
  const store = new MemoryStore(storage.host, { historyDepth: 5 });
  try {
    const doc = "## Open Questions\n- 2020-01-01: old question\n- 2099-01-01: new question";
    for (const id of ["a", "b", "c"]) {
      assert.equal((await store.save({ scope: "team", id }, doc, { baseRevision: 0 })).status, "saved");
      await recordMemory(storage, { scope: "team", id });
    }
    const head = await storage.host.get("memdoc/team/b");
    await storage.host.put("memdoc/team/b", head.value.replace('"format":"memdoc/1"', '"format":"memdoc/9"'), { expectedVersion: head.version });
    await storage.put(["lifecycle", "policies"], [{ section: "Open Questions", maxAgeDays: 30 }]);
    const result = await sweepTeam({ storage, store, today: "2025-01-01", auditMax: 100 });
    assert.deepEqual(
      result.memories.map((m) => [m.memory, m.status, m.code ?? null]),
      [
        ["team/a", "swept", null],
        ["team/b", "unreadable", "store/unsupported-format"],
        ["team/c", "swept", null],
      ],
    );
    assert.equal(result.swept, 2);
  } finally {
    store.free();
  }
});

test("a purge deletes an unreadable memory's raw records, and never a key outside it", async () => {
  const storage = mapStorage();
  const store = new MemoryStore(storage.host, { historyDepth: 5 });
  try {
    const doc = "## Facts\n- 2025-01-01: a fact";
    for (const id of ["bad", "other"]) assert.equal((await store.save({ scope: "team", id }, doc, { baseRevision: 0 })).status, "saved");
    const other = (await storage.host.get("memdoc/team/other")).value;
    const otherSnapshot = JSON.parse(other).snapshots[0].key;
    const head = await storage.host.get("memdoc/team/bad");
    const own = JSON.parse(head.value).snapshots[0].key;
    // Another format, and a snapshot list that names the other memory's record.
    const bad = JSON.stringify({ ...JSON.parse(head.value), format: "memdoc/9", snapshots: [{ revision: 1, key: own }, { revision: 1, key: otherSnapshot }] });
    await storage.host.put("memdoc/team/bad", bad, { expectedVersion: head.version });
    await assert.rejects(store.load({ scope: "team", id: "bad" }), { code: "store/unsupported-format" });
    assert.equal(await storedRevision(storage, { scope: "team", id: "bad" }), 1);
    await purgeMemory(storage, { scope: "team", id: "bad" });
    assert.equal(await storage.host.get("memdoc/team/bad"), null);
    assert.equal(await storage.host.get(own), null);
    assert.equal((await store.load({ scope: "team", id: "other" })).content, doc, "the other memory is whole");
    assert.notEqual(await storage.host.get(otherSnapshot), null);
    // Not JSON at all: deleted as well.
    await storage.host.put("memdoc/team/worse", "{not json", { expectedVersion: null });
    await purgeMemory(storage, { scope: "team", id: "worse" });
    assert.equal(await storage.host.get("memdoc/team/worse"), null);
  } finally {
    store.free();
  }
});

test("a team recall skips and reports an unreadable memory, and recalls the others", async () => {
  const teams = new Map();
  const OPERATOR = "operator-token-of-the-unreadable-test";
  const hub = createHub(
    { operatorToken: OPERATOR, bodyCap: 100_000, bodyTimeoutMs: 5000, ratePerMinute: 100_000, auditMax: 1000, historyDepth: 5, taskTtlSeconds: 60, importCap: 100_000, deletedRetentionDays: 1 },
    {
      team: (team, o = {}) => teams.get(team) ?? (o.create ? teams.set(team, mapStorage()).get(team) : null),
      subscribe: () => new Response(null, { status: 500 }),
      log: () => {},
    },
  );
  const send = async (method, path, key, body, more = {}) => {
    const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...more };
    const response = await hub.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  };
  const created = await send("POST", "/v1/teams", OPERATOR, { team: "alpha" });
  assert.equal(created.status, 201);
  const { key } = created.json;
  for (const id of ["a", "b", "c"]) {
    const saved = await send("PUT", `/v1/teams/alpha/memories/team/${id}`, key, { content: `## Decisions\n- 2025-01-01: Memory ${id} uses PostgreSQL` }, { "if-match": '"0"' });
    assert.equal(saved.status, 200, JSON.stringify(saved.json));
  }
  const { host } = teams.get("alpha");
  const head = await host.get("memdoc/team/b");
  await host.put("memdoc/team/b", head.value.replace('"format":"memdoc/1"', '"format":"memdoc/9"'), { expectedVersion: head.version });
  const recalled = await send("GET", "/v1/teams/alpha/recall?q=postgresql", key);
  assert.equal(recalled.status, 200, JSON.stringify(recalled.json));
  assert.deepEqual(recalled.json.unreadable, [{ scope: "team", id: "b", code: "store/unsupported-format" }]);
  assert.deepEqual(recalled.json.selected.map((item) => item.memory.id).sort(), ["a", "c"]);
  assert.equal(recalled.json.totals.memories, 2);
});
