// The store's adapters that run in Node, through the built package: the
// memory and localStorage adapters against the KvHost contract, and the
// pruning of old snapshots through a host's delete.
import assert from "node:assert/strict";
import { test } from "node:test";

import { localStorageHost } from "memdoc/adapters/local-storage";
import { memoryHost } from "memdoc/adapters/memory";
import { checkHost } from "./host-contract.mjs";
import { alice, assertRejects, store, V1, V2, V3 } from "./store-fixture.mjs";

/** A tiny Web Storage (the subset the adapter uses, with the Storage API's string coercion). */
class TinyStorage {
  #items = new Map();
  get length() {
    return this.#items.size;
  }
  key(i) {
    return [...this.#items.keys()][i] ?? null;
  }
  getItem(key) {
    return this.#items.has(String(key)) ? this.#items.get(String(key)) : null;
  }
  setItem(key, value) {
    this.#items.set(String(key), String(value));
  }
  removeItem(key) {
    this.#items.delete(String(key));
  }
  clear() {
    this.#items.clear();
  }
}

async function roundTrip(host, what) {
  const s = store(host);
  assert.equal((await s.load(alice)).revision, 0, what);
  assert.equal((await s.save(alice, V1, { baseRevision: 0 })).revision, 1, what);
  assert.equal((await s.save(alice, V2, { baseRevision: 1 })).revision, 2, what);
  assert.equal((await s.save(alice, V3, { baseRevision: 1 })).status, "conflict", what);
  assert.equal((await s.revert(alice, 1, { baseRevision: 2 })).content, V1, what);
  assert.equal(await s.revision(alice, 2), V2, what);
  assert.deepEqual((await s.history(alice)).map((h) => h.revision), [3, 2, 1], what);
  // A second store over the same host sees the same memory.
  assert.equal((await store(host).load(alice)).content, V1, what);
}

test("the memory adapter: KvHost contract and MemoryStore", async () => {
  assert.deepEqual(await checkHost(memoryHost), []);
  await roundTrip(memoryHost(), "memory");
});

test("the localStorage adapter (in-test Storage, locks: null): contract and MemoryStore", async () => {
  assert.deepEqual(await checkHost(() => localStorageHost(new TinyStorage(), { locks: null })), []);
  const storage = new TinyStorage();
  await roundTrip(localStorageHost(storage, { locks: null }), "localStorage");
  assert.ok(storage.length >= 4, "head and snapshots should be stored as items");
  // An item that is not the adapter's record is a host failure, with the
  // adapter's error as the cause; never an empty memory.
  storage.setItem("memdoc/user/bob", "{not json");
  const error = await assertRejects(store(localStorageHost(storage, { locks: null })).load({ scope: "user", id: "bob" }), "store/host-failed", "foreign item");
  assert.ok(error.cause instanceof Error);
  assert.match(error.cause.message, /not a memdoc record/);
});

// ---- pruning old snapshots (KvHost.delete) ----------------------------------

/** A document with `n` entries: each save adds one. */
function numbered(n) {
  return ["## Log", ...Array.from({ length: n }, (_, i) => `- 2025-01-01: entry ${i + 1}`)].join("\n");
}

test("many saves through the localStorage adapter keep the number of keys bounded", async () => {
  const storage = new TinyStorage();
  const depth = 5;
  const s = store(localStorageHost(storage, { locks: null }), { historyDepth: depth });
  const saves = 60;
  for (let n = 1; n <= saves; n += 1) {
    const out = await s.save(alice, numbered(n), { baseRevision: n - 1 });
    assert.equal(out.status, "saved");
    assert.equal(out.notice, null, `save ${n} has nothing to report`);
    assert.equal(storage.length, 1 + Math.min(n, depth), `save ${n}: the head and the kept snapshots`);
  }
  for (let n = saves - depth + 1; n <= saves; n += 1) assert.equal(await s.revision(alice, n), numbered(n), `revision ${n} is kept`);
  assert.equal(await s.revision(alice, saves - depth), null, "a pruned revision is older than the kept history");
  await assertRejects(s.revert(alice, 1, { baseRevision: saves }), "store/revision-unavailable", "revert to a pruned revision");
  const head = JSON.parse(JSON.parse(storage.getItem("memdoc/user/alice")).value);
  const named = head.snapshots.map((r) => r.key).sort();
  const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((k) => k !== "memdoc/user/alice").sort();
  assert.deepEqual(keys, named, "exactly the snapshots the head names remain");
});

test("a delete that fails does not fail the save and is reported in the notice", async () => {
  for (const failing of [
    async () => {
      throw new Error("cannot delete");
    },
    () => Promise.reject(new Error("rejected")),
    () => {
      throw new Error("thrown synchronously");
    },
  ]) {
    const inner = memoryHost();
    const deleted = [];
    let fail = false;
    const host = {
      get: (k) => inner.get(k),
      put: (k, v, c) => inner.put(k, v, c),
      delete: (k) => {
        deleted.push(k);
        return fail ? failing(k) : inner.delete(k);
      },
    };
    const s = store(host, { historyDepth: 2 });
    for (let n = 1; n <= 3; n += 1) await s.save(alice, numbered(n), { baseRevision: n - 1 });
    assert.equal(deleted.length, 1, "save 3 dropped revision 1");
    fail = true;
    const out = await s.save(alice, numbered(4), { baseRevision: 3 });
    assert.equal(out.status, "saved");
    assert.equal(out.revision, 4);
    assert.equal(out.notice, "1 old snapshot could not be removed.");
    assert.equal((await s.load(alice)).content, numbered(4));
    assert.equal(await s.revision(alice, 3), numbered(3));
    assert.equal(inner.keys().length, 1 + 2 + 1, "the snapshot that could not be removed stays");
  }
});

test("a host without delete keeps every snapshot and works as before", async () => {
  const inner = memoryHost();
  const host = { get: (k) => inner.get(k), put: (k, v, c) => inner.put(k, v, c) };
  const s = store(host, { historyDepth: 2 });
  for (let n = 1; n <= 6; n += 1) {
    const out = await s.save(alice, numbered(n), { baseRevision: n - 1 });
    assert.equal(out.notice, null);
  }
  assert.equal(inner.keys().length, 1 + 6);
  assert.equal(await s.revision(alice, 4), null);
  // A `delete` that is not a function is no delete either.
  const odd = { ...host, delete: "no" };
  assert.equal((await store(odd, { historyDepth: 2 }).save(alice, numbered(7), { baseRevision: 6 })).status, "saved");
  assert.equal(inner.keys().length, 1 + 7);
});

test("saves that lose a race or write nothing delete nothing", async () => {
  const inner = memoryHost();
  const deleted = [];
  const host = { get: (k) => inner.get(k), put: (k, v, c) => inner.put(k, v, c), delete: (k) => (deleted.push(k), inner.delete(k)) };
  const s = store(host, { historyDepth: 1 });
  await s.save(alice, numbered(1), { baseRevision: 0 });
  await s.save(alice, numbered(2), { baseRevision: 1 });
  assert.equal(deleted.length, 1);
  assert.equal((await s.save(alice, numbered(3), { baseRevision: 1 })).status, "conflict");
  assert.equal((await s.save(alice, numbered(2), { baseRevision: 2 })).changed, false);
  assert.equal((await s.save(alice, "", { baseRevision: 2 })).status === "saved", false);
  assert.equal(deleted.length, 1, "only a successful head write prunes");
});
