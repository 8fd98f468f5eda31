// A memory's records carried whole through the built package (API.md,
// record-format.md "Export, import and purge"): exportRecords, importRecords
// (its refusals, with the bad record's `key`, before any write), purge of a
// head the store refuses, storedRevision and headKey.
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryHost } from "memdoc/adapters/memory";
import { alice, assertRejects, counted, store, team, V1, V2, V3 } from "./store-fixture.mjs";

const bob = { scope: "user", id: "bob" };

/** A host holding `bob` saved three times, and its records as exported. */
async function exported() {
  const host = memoryHost();
  const s = store(host);
  await s.save(bob, V1, { baseRevision: 0 });
  await s.save(bob, V2, { baseRevision: 1 });
  await s.save(bob, V3, { baseRevision: 2 });
  return { host, records: await s.exportRecords(bob) };
}

/** What `host` holds, key by key. */
async function contents(host) {
  const out = {};
  for (const key of host.keys().sort()) out[key] = (await host.get(key)).value;
  return out;
}

test("exportRecords answers the head and its snapshots as stored, null when nothing is", async () => {
  const { host, records } = await exported();
  assert.equal(await store(host).exportRecords(alice), null);
  assert.deepEqual(Object.keys(records), ["head", "snapshots"]);
  const { [store(host).headKey(bob)]: head, ...snapshots } = await contents(host);
  assert.equal(records.head, head, "the head as stored");
  assert.deepEqual(
    records.snapshots.map((s) => s.revision),
    [3, 2, 1],
  );
  assert.deepEqual(Object.fromEntries(records.snapshots.map((s) => [s.key, s.value])), snapshots, "each snapshot as stored");
});

test("importRecords writes the very records, the head last, and the memory reads as before", async () => {
  const { host: from, records } = await exported();
  const to = counted(memoryHost());
  to.delete = () => assert.fail("an import deletes nothing");
  const s = store(to);
  assert.equal(await s.importRecords(bob, records), 3);
  assert.deepEqual(to.calls.filter(([m]) => m === "put").map(([, key]) => key).at(-1), s.headKey(bob), "the head last");
  assert.equal((await s.load(bob)).content, V3);
  assert.deepEqual(await Promise.all([1, 2, 3].map((n) => s.revision(bob, n))), [V1, V2, V3]);
  assert.deepEqual(await s.exportRecords(bob), records);
  assert.deepEqual(Object.keys(await contents(from)).length, records.snapshots.length + 1);
});

test("importRecords refuses records that are not a head of the memory and exactly its snapshots, before any write", async () => {
  const { records } = await exported();
  const other = { scope: "user", id: "carol" };
  const [newest, middle, oldest] = records.snapshots;
  const cases = [
    ["the head of another memory", other, records, "store/corrupt-record", store().headKey(other)],
    ["a missing snapshot", bob, { ...records, snapshots: [newest, oldest] }, "store/corrupt-record", middle.key],
    ["a snapshot of another revision", bob, { ...records, snapshots: [newest, { ...middle, value: oldest.value }, oldest] }, "store/corrupt-record", middle.key],
    ["a head of another format", bob, { ...records, head: JSON.stringify({ ...JSON.parse(records.head), format: "memdoc/9" }) }, "store/unsupported-format", store().headKey(bob)],
  ];
  for (const [what, ref, given, code, key] of cases) {
    const host = counted(memoryHost());
    const error = await assertRejects(store(host).importRecords(ref, given), code, what);
    assert.equal(error.key, key, `${what}: the bad record's key`);
    assert.deepEqual(host.calls, [], `${what}: nothing read or written`);
  }
  // The records' shape and revisions are checked at once.
  for (const [given, code] of [
    [null, "options/invalid"],
    [{ head: records.head }, "options/invalid"],
    [{ ...records, snapshots: [{ ...newest, value: 5 }] }, "options/invalid"],
    [{ ...records, snapshots: [{ ...newest, revision: 1.5 }] }, "store/invalid-revision"],
  ]) {
    const host = counted(memoryHost());
    await assertRejects(store(host).importRecords(bob, given), code, JSON.stringify(given).slice(0, 60));
    assert.deepEqual(host.calls, []);
  }
});

test("importRecords replaces what an abandoned import left", async () => {
  const { host: from, records } = await exported();
  const to = memoryHost();
  const s = store(to);
  await to.put(s.headKey(bob), records.snapshots[2].value, { expectedVersion: null });
  await to.put(records.snapshots[0].key, "left over", { expectedVersion: null });
  assert.equal(await s.importRecords(bob, records), 3);
  assert.deepEqual(await contents(to), await contents(from));
});

test("purge deletes a head the store refuses and its own snapshots; storedRevision reads its revision", async () => {
  const { host, records } = await exported();
  const s = store(host);
  await s.save(alice, V1, { baseRevision: 0 });
  const head = { ...JSON.parse(records.head), extra: true };
  head.snapshots = [...head.snapshots, { revision: 0, key: s.headKey(alice) }];
  await host.put(s.headKey(bob), JSON.stringify(head), { expectedVersion: (await host.get(s.headKey(bob))).version });
  await assertRejects(s.load(bob), "store/corrupt-record", "a head with an unknown field");
  assert.equal(await s.storedRevision(bob), 3);
  assert.equal(await s.storedRevision(alice), 1);
  assert.equal(await s.storedRevision({ scope: "user", id: "none" }), 0);
  assert.equal(await s.purge(bob), true);
  assert.equal(await s.purge(bob), false, "nothing is left to purge");
  assert.deepEqual(host.keys().filter((k) => k.startsWith(s.headKey(bob))), []);
  assert.equal((await s.load(alice)).content, V1, "a key outside the memory is never deleted");
  await assertRejects(s.purge({ scope: "user", id: "../x" }), "store/invalid-id", "a bad reference");
});

test("headKey is the store's own key of the head, under its prefix", () => {
  assert.equal(store().headKey(team), "memdoc/team/acme");
  assert.equal(store(memoryHost(), { keyPrefix: "memdoc-task" }).headKey(team), "memdoc-task/team/acme");
  assert.equal(
    (() => {
      try {
        store().headKey({ scope: "team", id: "a/b" });
      } catch (error) {
        return error.code;
      }
    })(),
    "store/invalid-id",
  );
});
