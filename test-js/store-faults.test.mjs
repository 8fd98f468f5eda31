// A store over a host that fails at random, through the real WebAssembly
// store: every host call, chosen by a seeded generator, either answers as
// it should (a promise, a plain value, a thenable, after a timer or after a
// few microtasks) or fails without doing anything (throws, rejects, answers
// a malformed value or a thenable whose `then` throws, never answers within
// the store's `timeoutMs`); a put may also write and then reject. After each
// operation a second store over the same entries, without faults, must find
// a consistent memory: the revision acknowledged last, or the one a failed
// save wrote before its host failed, with its content; revisions dense;
// every revision of the kept history readable as it was saved.
//
// `FAULT_SEED=N node --test test-js/store-faults.test.mjs` runs another
// sequence and prints what it met (seeds 1 to 100 pass; two of them meet no
// call that never answers, which the last checks ask of the default seed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore, render } from "memdoc";

import { seeded } from "./helpers.mjs";

const ref = { scope: "user", id: "faults" };
const limits = { soft: 100_000, hard: 100_000 };
const historyDepth = 3;
const now = () => "2025-06-01T00:00:00.000Z";

/** A KvHost whose methods answer plain values at once: a Map with versions. */
function plainHost() {
  const entries = new Map();
  let counter = 0;
  return {
    entries,
    get: (key) => {
      const entry = entries.get(key);
      return entry ? { value: entry.value, version: entry.version } : null;
    },
    put: (key, value, condition) => {
      const current = entries.get(key);
      if ((current ? current.version : null) !== condition.expectedVersion) return { ok: false };
      counter += 1;
      entries.set(key, { value, version: String(counter) });
      return { ok: true, version: String(counter) };
    },
    delete: (key) => {
      entries.delete(key);
    },
  };
}

const never = () => new Promise(() => {});
const hostError = new Error("the host failed");

/** `inner` with each call's delivery or failure chosen by `random`. */
function faulty(inner, random) {
  const faults = { calls: 0, failed: 0, wroteThenFailed: 0 };
  const deliver = (answer) => {
    switch (Math.floor(random() * 5)) {
      case 0:
        return answer;
      case 1:
        return Promise.resolve(answer);
      case 2:
        return { then: (resolve) => resolve(answer) };
      case 3:
        return new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3), answer));
      default:
        return Promise.resolve().then(() => Promise.resolve()).then(() => answer);
    }
  };
  const malformed = { get: () => ({ value: 5, version: "1" }), put: () => ({ ok: "yes" }), delete: null };
  const fail = (method) => {
    faults.failed += 1;
    switch (Math.floor(random() * 5)) {
      case 0:
        throw hostError;
      case 1:
        return Promise.reject(hostError);
      case 2:
        return {
          get then() {
            throw hostError;
          },
        };
      case 3:
        return random() < 0.5 ? never() : Promise.reject(hostError);
      default:
        return malformed[method] ? malformed[method]() : Promise.reject(hostError);
    }
  };
  const call = (method) => (...args) => {
    faults.calls += 1;
    if (random() < 0.12) return fail(method);
    if (method === "put" && random() < 0.04) {
      faults.wroteThenFailed += 1;
      inner.put(...args);
      return Promise.reject(hostError);
    }
    return deliver(inner[method](...args));
  };
  return { host: { get: call("get"), put: call("put"), delete: call("delete") }, faults };
}

/** The next text: an entry added, one changed or one removed. */
function edit(text, random, step) {
  const lines = text.split("\n");
  const entries = lines.map((l, i) => [l, i]).filter(([l]) => l.startsWith("- "));
  const choice = random();
  if (choice < 0.6 || entries.length < 3) {
    const at = 1 + Math.floor(random() * lines.length);
    lines.splice(at, 0, `- 2025-02-${String((step % 28) + 1).padStart(2, "0")}: step ${step} 日本 😀 é`);
  } else if (choice < 0.8) {
    const [, i] = entries[Math.floor(random() * entries.length)];
    lines[i] = `${lines[i]} (changed at ${step})`;
  } else {
    const [, i] = entries[Math.floor(random() * entries.length)];
    lines.splice(i, 1);
  }
  return lines.join("\n");
}

test("a store over a host that fails at random: every operation leaves a consistent memory", async () => {
  const random = seeded(Number(process.env.FAULT_SEED ?? 20261204));
  const inner = plainHost();
  const { host, faults } = faulty(inner, random);
  const store = new MemoryStore(host, { limits, historyDepth, now, timeoutMs: 20 });
  // What a store without faults finds: the current revision and the content
  // of each revision saved.
  let revision = 0;
  let content = "";
  const contents = new Map();
  let text = "## Facts\n- 2025-01-01: a first fact 日本\n\n## Preferences\n- 2025-01-02: tea 😀";
  const outcomes = { ok: 0, failed: 0, codes: new Map() };

  /** A store without faults over the same entries checks the memory; `candidates` are the contents it may hold. */
  async function check(step, attempted) {
    const clean = new MemoryStore(inner, { limits, historyDepth, now });
    const loaded = await clean.load(ref);
    if (loaded.revision === revision + 1 && attempted !== undefined) {
      // A failed save whose head was written before its host failed.
      assert.equal(loaded.content, attempted, `step ${step}: the revision a failed save wrote holds its content`);
      revision = loaded.revision;
      content = loaded.content;
      contents.set(revision, content);
    }
    assert.deepEqual([loaded.revision, loaded.content], [revision, content], `step ${step}: the memory`);
    const history = await clean.history(ref);
    assert.deepEqual(
      history.map((h) => h.revision),
      Array.from({ length: Math.min(revision, historyDepth) }, (_, i) => revision - i),
      `step ${step}: revisions dense, newest first`,
    );
    for (const { revision: r } of history) {
      assert.equal(await clean.revision(ref, r), contents.get(r), `step ${step}: revision ${r}`);
    }
    clean.free();
  }

  for (let step = 0; step < 160; step += 1) {
    const choice = random();
    let attempted;
    try {
      if (choice < 0.6) {
        const updated = edit(text, random, step);
        // What a save stores: the canonical form.
        attempted = render(updated);
        const out = await store.save(ref, updated, { baseRevision: revision });
        if (out.status === "saved") {
          assert.equal(out.revision, revision + 1, `step ${step}: a save makes the next revision`);
          revision = out.revision;
          content = out.content;
          contents.set(revision, content);
        } else {
          assert.equal(out.status, "no_op", `step ${step}: ${out.status} ${out.notice ?? ""}`);
        }
        text = updated;
      } else if (choice < 0.8) {
        const loaded = await store.load(ref);
        assert.deepEqual([loaded.revision, loaded.content], [revision, content], `step ${step}: load`);
      } else if (choice < 0.9) {
        const history = await store.history(ref);
        assert.equal(history[0]?.revision ?? 0, revision, `step ${step}: history`);
      } else if (revision > 1) {
        const back = revision - 1 - Math.floor(random() * Math.min(revision - 1, historyDepth - 1));
        attempted = contents.get(back);
        const out = await store.revert(ref, back, { baseRevision: revision });
        if (out.status === "saved") {
          assert.equal(out.content, contents.get(back), `step ${step}: revert`);
          revision = out.revision;
          content = out.content;
          contents.set(revision, content);
        }
        text = content;
      }
      outcomes.ok += 1;
    } catch (error) {
      assert.ok(error instanceof Error, `step ${step}: a failure is an Error`);
      assert.ok(["store/host-failed", "store/host-timeout"].includes(error.code), `step ${step}: ${error.code} ${error.message}`);
      outcomes.failed += 1;
      outcomes.codes.set(error.code, (outcomes.codes.get(error.code) ?? 0) + 1);
    }
    await check(step, attempted);
    // The text edited next is what is stored now.
    text = content || text;
  }
  if (process.env.FAULT_SEED) console.log(JSON.stringify({ faults, ...outcomes, codes: [...outcomes.codes] }));
  // The faults were met and the store went on working through them.
  assert.ok(faults.failed > 20 && faults.wroteThenFailed > 0, JSON.stringify(faults));
  assert.ok(outcomes.failed > 10 && outcomes.ok > 80, JSON.stringify({ ...outcomes, codes: [...outcomes.codes] }));
  assert.ok(outcomes.codes.get("store/host-timeout") > 0, "some calls never answered");
  const final = await store.load(ref).catch(() => store.load(ref)).catch(() => store.load(ref));
  assert.deepEqual([final.revision, final.content], [revision, content]);
});
