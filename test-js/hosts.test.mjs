// Hostile hosts through the built package: calls that throw, reject, never
// answer (the store's `timeoutMs`), answer with throwing getters or Proxies,
// lag behind (stale versions) or hand back another memory's records. Each is
// a coded error (or a conflict) and nothing stored is overwritten.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

import { MemoryStore, errorCodes } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { rejection, root } from "./helpers.mjs";

const alice = { scope: "user", id: "alice" };
const bob = { scope: "user", id: "bob" };
const V1 = "## Facts\n- 2025-03-15: Lives in Seattle";
const V2 = `${V1}\n- 2025-03-16: Works on the search team`;
const V3 = `${V2}\n- 2025-03-17: Likes dark mode`;
const now = () => "2025-06-01T00:00:00.000Z";
const never = () => new Promise(() => {});

async function assertRejects(promise, code, what) {
  const error = await rejection(promise);
  assert.ok(error instanceof Error, `${what}: should reject with an Error, got ${error}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(errorCodes().includes(code), `${code} should be listed by errorCodes()`);
  return error;
}

/** `inner` with some of its methods replaced. */
const over = (inner, methods) => ({
  get: (k) => inner.get(k),
  put: (k, v, c) => inner.put(k, v, c),
  delete: (k) => inner.delete(k),
  ...methods,
});

/** A host holding alice at revision 2 (V2), and the store over it. */
async function twoRevisions(options = {}) {
  const inner = memoryHost();
  const s = new MemoryStore(inner, { now, ...options });
  await s.save(alice, V1, { baseRevision: 0 });
  await s.save(alice, V2, { baseRevision: 1 });
  return { inner, s };
}

async function assertUnchanged(inner, what) {
  const loaded = await new MemoryStore(inner, { now }).load(alice);
  assert.deepEqual([loaded.revision, loaded.content], [2, V2], `${what}: nothing is overwritten`);
}

test("timeoutMs: a get, put or delete that never answers is store/host-timeout, and nothing changes", async () => {
  const { inner } = await twoRevisions();
  const started = Date.now();
  const hung = new MemoryStore(over(inner, { get: never }), { now, timeoutMs: 40 });
  for (const [what, call] of [
    ["load", () => hung.load(alice)],
    ["history", () => hung.history(alice)],
    ["revision", () => hung.revision(alice, 1)],
    ["save", () => hung.save(alice, V3, { baseRevision: 2 })],
    ["revert", () => hung.revert(alice, 1, { baseRevision: 2 })],
  ]) {
    const error = await assertRejects(call(), "store/host-timeout", what);
    assert.equal(error.cause, undefined, "there is no host error to pass on");
    assert.match(error.message, /40 ms/);
    assert.match(error.message, /memdoc\/user\/alice/, "the message names the key");
  }
  // Each call waited for its timeout (a lower bound: a slow machine only
  // waits longer; a call that never ends fails the test by its own timeout).
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= 5 * 35, `waited ${elapsed} ms for five 40 ms timeouts`);
  // A put that never answers: the snapshot write, then the head write.
  for (const hang of [1, 2]) {
    let puts = 0;
    const host = over(inner, { put: (k, v, c) => (++puts === hang ? never() : inner.put(k, v, c)) });
    const s = new MemoryStore(host, { now, timeoutMs: 30 });
    await assertRejects(s.save(alice, V3, { baseRevision: 2 }), "store/host-timeout", `put #${hang}`);
    await assertUnchanged(inner, `put #${hang}`);
  }
  // A delete that never answers is a delete that failed: the save stands.
  const s = new MemoryStore(over(inner, { delete: never }), { now, timeoutMs: 30, historyDepth: 1 });
  const out = await s.save(alice, V3, { baseRevision: 2 });
  assert.deepEqual([out.status, out.revision], ["saved", 3]);
  assert.match(out.notice, /could not be removed/);
  assert.equal((await s.load(alice)).content, V3);
});

test("timeoutMs: slow answers within the limit, and plain values, are used", async () => {
  const { inner } = await twoRevisions();
  const slow = (f) => (...args) => new Promise((resolve) => setTimeout(() => resolve(f(...args)), 15));
  const host = { get: slow((k) => inner.get(k)), put: slow((k, v, c) => inner.put(k, v, c)) };
  const s = new MemoryStore(host, { now, timeoutMs: 5000 });
  const out = await s.save(alice, V3, { baseRevision: 2 });
  assert.deepEqual([out.status, out.revision], ["saved", 3]);
  // A rejection still carries the host's own error, not a timeout.
  const original = new Error("refused");
  const failing = new MemoryStore(over(inner, { get: () => Promise.reject(original) }), { now, timeoutMs: 5000 });
  const error = await assertRejects(failing.load(alice), "store/host-failed", "rejecting get");
  assert.equal(error.cause, original);
});

test("timeoutMs: bad values are options/invalid from the constructor", () => {
  for (const bad of [0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 1e300, "100", true, {}, [], () => 1]) {
    let error;
    try {
      new MemoryStore(memoryHost(), { timeoutMs: bad });
    } catch (e) {
      error = e;
    }
    assert.equal(error?.code, "options/invalid", `timeoutMs: ${String(bad)}`);
  }
  for (const ok of [1, 2 ** 31 - 1, null, undefined]) new MemoryStore(memoryHost(), { timeoutMs: ok });
});

test("timeoutMs: finished calls leave no timer behind (the process exits at once)", () => {
  const script = `
    import { MemoryStore } from "memdoc";
    import { memoryHost } from "memdoc/adapters/memory";
    const s = new MemoryStore(memoryHost(), { timeoutMs: 600000 });
    const ref = { scope: "team", id: "t" };
    await s.save(ref, "## A\\n- 2025-01-01: a", { baseRevision: 0 });
    await s.load(ref);
    console.log("done");
  `;
  // A pending 10-minute timer would keep the process alive until spawnSync
  // kills it (status null, signal SIGTERM).
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8", timeout: 60000 });
  assert.equal(r.stdout.trim(), "done", r.stderr);
  assert.deepEqual([r.status, r.signal], [0, null], "the process should end on its own");
});

test("host methods that throw synchronously, and answers with throwing getters or Proxies", async () => {
  const { inner } = await twoRevisions();
  const original = new Error("getter exploded");
  const trap = new Proxy({}, { get() { throw original; }, has() { throw original; } });
  const cases = [
    ["get throws", { get: () => { throw original; } }],
    ["put throws", { put: () => { throw original; } }],
    ["get answers a throwing value getter", { get: async (k) => ({ get value() { throw original; }, version: (await inner.get(k))?.version }) }],
    ["get answers a Proxy that throws", { get: async () => trap }],
    ["put answers a throwing ok getter", { put: async () => ({ get ok() { throw original; } }) }],
    ["put answers a Proxy that throws", { put: async () => trap }],
    // Answers that are promises or look like them, handed back as they are
    // (not from an async function, which would adopt them first).
    ["get answers a thenable whose then getter throws", { get: () => ({ get then() { throw original; } }) }],
    ["get answers a thenable that rejects", { get: () => ({ then: (_, reject) => reject(original) }) }],
    ["get answers a thenable whose then throws", { get: () => ({ then: () => { throw original; } }) }],
    ["get answers a promise with a then of its own that throws", { get: () => Object.assign(Promise.resolve(null), { then() { throw original; } }) }],
    ["get answers a promise whose constructor getter throws", { get: () => Object.defineProperty(Promise.resolve(null), "constructor", { get() { throw original; } }) }],
  ];
  for (const [what, methods] of cases) {
    const s = new MemoryStore(over(inner, methods), { now });
    const error = await assertRejects(s.save(alice, V3, { baseRevision: 2 }), "store/host-failed", what);
    assert.equal(error.cause, original, `${what}: the thrown value is the cause`);
    await assertUnchanged(inner, what);
  }
  // A host that is a Proxy throwing on every property, or whose methods are
  // throwing getters, is refused by the constructor.
  const getterHost = { get get() { throw original; }, put: async () => ({ ok: false }) };
  for (const [what, host] of [["proxy", trap], ["getter", getterHost]]) {
    let error;
    try {
      new MemoryStore(host);
    } catch (e) {
      error = e;
    }
    assert.equal(error?.code, "options/invalid", what);
  }
});

test("a host whose reads lag (stale versions): a conflict, never an overwrite", async () => {
  const { inner } = await twoRevisions();
  // A replica frozen at revision 1 answers every read; writes go to the
  // primary with its compare-and-swap.
  const frozen = new Map();
  for (const key of inner.keys()) frozen.set(key, await inner.get(key));
  const replicaAtOne = memoryHost();
  const s1 = new MemoryStore(replicaAtOne, { now });
  await s1.save(alice, V1, { baseRevision: 0 });
  const lagging = over(inner, { get: (k) => replicaAtOne.get(k) });
  const s = new MemoryStore(lagging, { now });
  const out = await rejectionOrValue(s.save(alice, V3, { baseRevision: 1 }));
  if (out instanceof Error) {
    assert.ok(["store/host-failed", "store/corrupt-record"].includes(out.code), out.code);
  } else {
    assert.equal(out.status, "conflict", "the head write must lose its compare-and-swap");
  }
  await assertUnchanged(inner, "stale reads");
});

async function rejectionOrValue(promise) {
  try {
    return await promise;
  } catch (error) {
    return error;
  }
}

test("a host that answers another memory's records: store/corrupt-record, and neither memory changes", async () => {
  const inner = memoryHost();
  const s = new MemoryStore(inner, { now });
  await s.save(bob, "## Bob\n- 2025-01-01: bob's", { baseRevision: 0 });
  await s.save(alice, V1, { baseRevision: 0 });
  await s.save(alice, V2, { baseRevision: 1 });
  const toBob = (k) => k.replace("/alice", "/bob");
  // Every read of alice answers bob's record at the same place.
  const crossed = over(inner, { get: (k) => inner.get(toBob(k)) });
  const c = new MemoryStore(crossed, { now });
  await assertRejects(c.load(alice), "store/corrupt-record", "bob's head for alice");
  await assertRejects(c.save(alice, V3, { baseRevision: 1 }), "store/corrupt-record", "saving over bob's head");
  // Only the snapshots are crossed: alice's head names her own snapshot
  // keys, whose records are bob's.
  const bobSnapshot = inner.keys().find((k) => k.includes("/bob/rev/"));
  const snapshots = over(inner, { get: (k) => inner.get(k.includes("/alice/rev/") ? bobSnapshot : k) });
  await assertRejects(new MemoryStore(snapshots, { now }).revision(alice, 1), "store/corrupt-record", "bob's snapshot for alice");
  await assertUnchanged(inner, "crossed records");
  assert.equal((await s.load(bob)).content, "## Bob\n- 2025-01-01: bob's");
});
