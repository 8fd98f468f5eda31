// The audit log's bound, over an in-memory TeamStorage with the same
// ordering as Durable Object storage and Deno KV (keys sorted). The HTTP
// suite checks the log through the API on both targets.
import assert from "node:assert/strict";
import { test } from "node:test";

import { appendAudit, readAudit, trimAudit } from "../src/audit.js";
import { mapStorage } from "./map-storage.mjs";

test("the audit log keeps the newest entries, at most max + one trim batch, and reads at most max", async () => {
  const storage = mapStorage();
  const max = 50;
  for (let i = 0; i < 500; i += 1) await appendAudit(storage, { action: "read", n: i }, max);
  const stored = [...storage.map.keys()].filter((k) => k.startsWith("audit/")).length;
  assert.ok(stored <= max + 32, `${stored} entries stored`);
  const newest = await readAudit(storage, max);
  assert.deepEqual(newest.map((e) => e.n), Array.from({ length: max }, (_, i) => 499 - i), "newest first, none missing");
  await trimAudit(storage, max);
  assert.equal([...storage.map.keys()].filter((k) => k.startsWith("audit/")).length, max);
});

test("entries appended in the same millisecond keep their order", async () => {
  const storage = mapStorage();
  for (let i = 0; i < 100; i += 1) await appendAudit(storage, { n: i }, 1000);
  assert.deepEqual((await readAudit(storage, 100)).map((e) => e.n), Array.from({ length: 100 }, (_, i) => 99 - i));
});
