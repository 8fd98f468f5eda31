// A memory the store cannot read never stops a team's sweep (docs/HUB.md,
// "Routes", the sweep): over an in-memory TeamStorage and the real engine,
// a head of another format is skipped and reported with the store's code,
// and the memories after it are still swept. (An import refuses such a
// head; this is storage gone bad by other means.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { MemoryStore } from "memdoc";

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
