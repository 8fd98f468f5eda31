// MemoryStore through the built package: every shape of API.md's
// "Persistence through the host", the errors (with `code`, and `cause` for a
// failing host), and argument checks before any host call (the adapters
// that run in Node: store-adapters.test.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore, diagnosticCodes, merge } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { covered, rejection } from "./helpers.mjs";
import { alice, assertRejects, clock, counted, store, team, V1, V2, V3 } from "./store-fixture.mjs";

test("load of an absent memory is revision 0 and empty", async () => {
  const loaded = await store().load(alice);
  assert.deepEqual(loaded, {
    content: "",
    revision: 0,
    updatedAt: null,
    updatedBy: null,
    usage: { chars: 0, utf8Bytes: 0, soft: 18000, hard: 25000, level: "ok" },
  });
});

test("save: saved, then load, with the keys under the prefix", async () => {
  const host = memoryHost();
  const s = store(host, { keyPrefix: "app/memories" });
  const saved = await s.save(alice, "##   Facts  \n- 2025-03-15: Lives in Seattle   \n\n\n", { baseRevision: 0, actor: "agent" });
  assert.deepEqual(saved, {
    status: "saved",
    content: V1,
    changed: true,
    usage: { chars: V1.length, utf8Bytes: V1.length, soft: 18000, hard: 25000, level: "ok" },
    diagnostics: [],
    dropped: [],
    revision: 1,
    notice: null,
    conflicts: [],
    merged: null,
  });
  const loaded = await s.load(alice);
  assert.equal(loaded.content, V1);
  assert.equal(loaded.revision, 1);
  assert.equal(loaded.updatedAt, "2025-06-01T00:00:00.000Z");
  assert.equal(loaded.updatedBy, "agent");
  assert.equal(loaded.usage.chars, V1.length);
  const keys = host.keys().sort();
  assert.equal(keys[0], "app/memories/user/alice");
  assert.match(keys[1], /^app\/memories\/user\/alice\/rev\/1\//);
  assert.equal(keys.length, 2);
});

test("save: no_op writes nothing; saving the same content again changes nothing", async () => {
  const inner = memoryHost();
  const s = store(inner);
  await s.save(alice, V1, { baseRevision: 0 });
  const before = inner.keys().length;
  const noop = await s.save(alice, "NO_UPDATE", { baseRevision: 1 });
  assert.equal(noop.status, "no_op");
  assert.equal(noop.revision, 1);
  assert.equal(noop.content, V1);
  assert.equal(noop.changed, false);
  const same = await s.save(alice, V1, { baseRevision: 1 });
  assert.equal(same.status, "saved");
  assert.equal(same.changed, false);
  assert.equal(same.revision, 1, "an unchanged save should not make a revision");
  assert.equal(inner.keys().length, before, "nothing should be written");
  assert.equal((await s.history(alice)).length, 1);
});

test("save: rejected keeps the content, with diagnostics ranged in the update (UTF-16)", async () => {
  const s = store();
  await s.save(team, "## Decisions 😀\n- 2025-03-15: Standups on Mondays", { baseRevision: 0 });
  const update = "## Decisions 😀\n- 2025-03-15: Standups on Mondays\n\n## Preferences\n- 2025-03-16: Alex likes dark mode";
  const out = await s.save(team, update, { baseRevision: 1 });
  assert.equal(out.status, "rejected");
  assert.equal(out.revision, 1);
  assert.equal(out.changed, false);
  assert.equal(out.content, "## Decisions 😀\n- 2025-03-15: Standups on Mondays");
  const d = out.diagnostics.find((x) => x.code === "scope/personal-heading");
  assert.ok(d, JSON.stringify(out.diagnostics));
  assert.equal(d.severity, "error");
  assert.equal(covered(update, d.range), "## Preferences");
  assert.equal((await s.load(team)).revision, 1);
});

test("save: a stale base revision is a conflict and writes nothing", async () => {
  const host = counted(memoryHost());
  const s = store(host);
  await s.save(alice, V1, { baseRevision: 0 });
  await s.save(alice, V2, { baseRevision: 1 });
  host.calls.length = 0;
  const late = await s.save(alice, `${V1}\n- 2025-03-18: Moved to Oslo`, { baseRevision: 1 });
  assert.equal(late.status, "conflict");
  assert.equal(late.revision, 2);
  assert.equal(late.content, V2, "a conflict reports what is stored");
  assert.equal(late.changed, false);
  assert.deepEqual(late.diagnostics, []);
  assert.match(late.notice, /revision 2/);
  assert.deepEqual(host.calls.map(([m]) => m), ["get"], "a conflict should only read");
  const ahead = await s.save(alice, V3, { baseRevision: 7 });
  assert.equal(ahead.status, "conflict");
});

test('onConflict "merge": a clean merge is saved, a conflicting one is a conflict', async () => {
  const s = store();
  const base = "## Facts\n- 2025-03-15: Lives in Seattle\n\n## Notes\nshared note";
  await s.save(alice, base, { baseRevision: 0 });
  await s.save(alice, `${base}\n- 2025-03-16: Added first`, { baseRevision: 1 });
  const merged = await s.save(
    alice,
    "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-17: Added second\n\n## Notes\nshared note",
    { baseRevision: 1, onConflict: "merge", actor: "second" },
  );
  assert.equal(merged.status, "saved", merged.notice);
  assert.equal(merged.revision, 3);
  assert.ok(merged.content.includes("- 2025-03-16: Added first"), merged.content);
  assert.ok(merged.content.includes("- 2025-03-17: Added second"), merged.content);
  assert.match(merged.notice, /Merged/);
  assert.equal((await s.load(alice)).content, merged.content);

  // Both change the same raw line differently from revision 3.
  const current = merged.content;
  await s.save(alice, current.replace("shared note", "first edit"), { baseRevision: 3 });
  const clash = await s.save(alice, current.replace("shared note", "second edit"), { baseRevision: 3, onConflict: "merge" });
  assert.equal(clash.status, "conflict");
  assert.equal(clash.revision, 4);
  assert.match(clash.notice, /conflict in 1 place\(s\) \(sections: `## Notes`\)/);
  assert.ok(clash.content.includes("first edit"));
  assert.equal((await s.load(alice)).revision, 4);

  const rejected = await s.save(alice, V1, { baseRevision: 3, onConflict: "reject" });
  assert.equal(rejected.status, "conflict");
  assert.deepEqual([rejected.conflicts, rejected.merged], [[], null], "only a merge save reports a merge");
  assert.deepEqual([merged.conflicts, merged.merged], [[], null]);
});

test('two writers merge concurrently: one is saved, the other gets the store\'s conflicts and merged text', async () => {
  const s = store();
  const base = "## Facts\n- 2025-03-15: Lives in Seattle\n\n## Notes\nmeet on Monday";
  await s.save(alice, base, { baseRevision: 0 });
  await s.save(alice, base.replace("Seattle", "Seattle\n- 2025-03-16: Moved the desk"), { baseRevision: 1 });
  const first = base.replace("Monday", "Tuesday");
  const second = base.replace("Monday", "Friday").replace("Seattle", "Seattle\n- 2025-03-17: Has a dog");
  // Both edited revision 1, both started before either finished.
  const [a, b] = await Promise.all([
    s.save(alice, first, { baseRevision: 1, onConflict: "merge", actor: "first" }),
    s.save(alice, second, { baseRevision: 1, onConflict: "merge", actor: "second" }),
  ]);
  const [won, lost, mine] = a.status === "saved" ? [a, b, second] : [b, a, first];
  assert.deepEqual([won.status, won.revision], ["saved", 3], won.notice);
  assert.deepEqual([lost.status, lost.revision, lost.content], ["conflict", 3, won.content], lost.notice);
  // The store merged once, with what it holds now as ours and the edit as theirs.
  const expected = merge(base, won.content, mine);
  assert.equal(expected.clean, false);
  assert.deepEqual(lost.conflicts, expected.conflicts);
  assert.equal(lost.conflicts[0].section, "Notes");
  assert.deepEqual(lost.conflicts[0].ours.lines, [won === a ? "meet on Tuesday" : "meet on Friday"]);
  assert.deepEqual(lost.conflicts[0].theirs.lines, [won === a ? "meet on Friday" : "meet on Tuesday"]);
  assert.equal(covered(won.content, lost.conflicts[0].ours.range), lost.conflicts[0].ours.lines[0]);
  assert.equal(covered(mine, lost.conflicts[0].theirs.range), lost.conflicts[0].theirs.lines[0]);
  const ours = lost.conflicts[0].ours.lines[0];
  const theirs = lost.conflicts[0].theirs.lines[0];
  assert.ok(
    lost.merged.includes(`<<<<<<< stored (revision 3)\n${ours}\n=======\n${theirs}\n>>>>>>> your edit (from revision 1)`),
    lost.merged,
  );
  // The parts that do not conflict are merged as a clean merge would.
  assert.ok(lost.merged.includes("- 2025-03-16: Moved the desk"), lost.merged);
  assert.equal(lost.merged.includes("- 2025-03-17: Has a dog"), mine === second, lost.merged);
  assert.equal((await s.load(alice)).revision, 3, "the conflict wrote nothing");
});

test("history is newest first with time, actor, size, delta and codes", async () => {
  const s = store();
  await s.save(alice, V1, { baseRevision: 0, actor: "agent" });
  await s.save(alice, `Sure! Here it is:\n${V2}`, { baseRevision: 1 });
  await s.save(alice, V1, { baseRevision: 2, actor: "alice@example.com" });
  const history = await s.history(alice);
  assert.deepEqual(
    history.map(({ revision, at, actor }) => ({ revision, at, actor })),
    [
      { revision: 3, at: "2025-06-01T00:00:02.000Z", actor: "alice@example.com" },
      { revision: 2, at: "2025-06-01T00:00:01.000Z", actor: null },
      { revision: 1, at: "2025-06-01T00:00:00.000Z", actor: "agent" },
    ],
  );
  assert.deepEqual(history.map((h) => h.chars), [V1.length, V2.length, V1.length]);
  assert.deepEqual(history.map((h) => h.delta), [V1.length - V2.length, V2.length - V1.length, V1.length]);
  assert.deepEqual(history[1].codes, ["structure/preamble-dropped"]);
  const known = diagnosticCodes();
  for (const h of history) assert.ok(h.codes.every((c) => known.includes(c)), JSON.stringify(h.codes));
  for (const h of history) assert.deepEqual(h.archived, []);
  assert.deepEqual(await s.history({ scope: "user", id: "nobody" }), []);
});

test("revision gives old contents; null for one never stored or no longer kept", async () => {
  const s = store(memoryHost(), { historyDepth: 2 });
  await s.save(alice, V1, { baseRevision: 0 });
  await s.save(alice, V2, { baseRevision: 1 });
  assert.equal(await s.revision(alice, 1), V1);
  assert.equal(await s.revision(alice, 2), V2);
  assert.equal(await s.revision(alice, 3), null);
  await s.save(alice, V3, { baseRevision: 2 });
  assert.equal(await s.revision(alice, 1), null, "older than the kept history");
  assert.equal(await s.revision(alice, 2), V2);
  assert.equal(await s.revision({ scope: "user", id: "nobody" }, 1), null);
  assert.deepEqual((await s.history(alice)).map((h) => h.revision), [3, 2]);
});

test("revert saves an old revision as a new one; bad revisions are coded", async () => {
  const s = store(memoryHost(), { historyDepth: 3 });
  await s.save(alice, V1, { baseRevision: 0 });
  await s.save(alice, V2, { baseRevision: 1 });
  await s.save(alice, V3, { baseRevision: 2 });
  const back = await s.revert(alice, 1, { baseRevision: 3, actor: "admin", allowErase: false });
  assert.equal(back.status, "saved");
  assert.equal(back.revision, 4);
  assert.equal(back.content, V1);
  assert.equal((await s.load(alice)).content, V1);
  assert.equal((await s.history(alice))[0].actor, "admin");
  const stale = await s.revert(alice, 2, { baseRevision: 3 });
  assert.equal(stale.status, "conflict");
  await assertRejects(s.revert(alice, 9, { baseRevision: 4 }), "store/invalid-revision", "revert to a future revision");
  await assertRejects(s.revert(alice, 1, { baseRevision: 4 }), "store/revision-unavailable", "revert past the kept history");
  await assertRejects(s.revert({ scope: "team", id: "empty" }, 1, { baseRevision: 0 }), "store/invalid-revision", "revert of an empty memory");
});

test("erasing needs allowErase", async () => {
  const s = store();
  await s.save(alice, V1, { baseRevision: 0 });
  const refused = await s.save(alice, "", { baseRevision: 1 });
  assert.equal(refused.status, "rejected");
  assert.ok(refused.diagnostics.some((d) => d.code === "save/would-erase"));
  const erased = await s.save(alice, "", { baseRevision: 1, allowErase: true });
  assert.equal(erased.status, "saved");
  assert.equal((await s.load(alice)).content, "");
});

const limits = { soft: 60, hard: 100 };
const long = `## Facts\n${Array.from({ length: 8 }, (_, i) => `- 2025-01-0${i + 1}: Fact number ${i + 1} is here`).join("\n")}`;

test("rewrite: an accepted rewrite is saved with a notice", async () => {
  const requests = [];
  const s = store(memoryHost(), {
    limits,
    rewrite: async (request) => {
      requests.push(request);
      return "## Facts\n- 2025-01-08: Fact number 8 is here";
    },
  });
  const out = await s.save(alice, long, { baseRevision: 0 });
  assert.equal(out.status, "saved", out.notice);
  assert.equal(out.content, "## Facts\n- 2025-01-08: Fact number 8 is here");
  assert.match(out.notice, /over the hard limit of 100; it was rewritten to 44 characters/);
  assert.equal(requests.length, 1);
  assert.deepEqual(Object.keys(requests[0]).sort(), ["content", "prompt", "target"]);
  assert.equal(requests[0].content, long);
  assert.equal(requests[0].target, 60);
  assert.ok(requests[0].prompt.endsWith(long));
  assert.deepEqual((await s.history(alice))[0].codes, ["size/hard-limit"]);
});

test("rewrite: refused, failing or non-string replies reject the save with a notice", async () => {
  const cases = [
    ["not smaller", async () => `${long}\n- 2025-02-01: even more`, /refused because the reply \(\d+ characters\) was not smaller|refused/],
    ["a sentinel", async () => "NO_UPDATE", /refused because the reply was a no-op sentinel/],
    ["a rejection", async () => Promise.reject(new Error("model down")), /the rewrite failed/],
    ["a throw", () => { throw new Error("sync"); }, /the rewrite failed/],
    ["a number", async () => 42, /the rewrite failed/],
    ["a plain string (no promise)", () => "## Facts\n- 2025-01-08: short", null],
  ];
  for (const [what, rewrite, notice] of cases) {
    const s = store(memoryHost(), { limits, rewrite });
    const out = await s.save(alice, long, { baseRevision: 0 });
    if (notice === null) {
      assert.equal(out.status, "saved", `${what}: ${out.notice}`);
      continue;
    }
    assert.equal(out.status, "rejected", what);
    assert.equal(out.revision, 0, what);
    assert.match(out.notice, notice, what);
    assert.ok(out.diagnostics.some((d) => d.code === "size/hard-limit"), what);
    assert.equal((await s.load(alice)).revision, 0, `${what}: nothing saved`);
  }
  const none = await store(memoryHost(), { limits }).save(alice, long, { baseRevision: 0 });
  assert.equal(none.status, "rejected");
  assert.equal(none.notice, null, "without rewrite or compaction the rejection stands as is");
});

test("compactOverLimit compacts to fit and archives every removed entry", async () => {
  const s = store(memoryHost(), { limits, compactOverLimit: true });
  const out = await s.save(alice, long, { baseRevision: 0, actor: "agent" });
  assert.equal(out.status, "saved", out.notice);
  assert.ok(out.usage.chars <= 60, `${out.usage.chars} should fit the rewrite target`);
  assert.match(out.notice, /compacted to \d+ characters .* removing \d+ entries, which are archived/);
  const [entry] = await s.history(alice);
  assert.ok(entry.archived.length > 0);
  assert.ok(entry.codes.includes("size/hard-limit"));
  for (const a of entry.archived) {
    assert.deepEqual(Object.keys(a).sort(), ["date", "section", "text"]);
    assert.equal(a.section, "Facts");
    assert.ok(!out.content.includes(a.text), `${a.text} was archived, so it should be gone`);
  }
  // Nothing is lost: what is kept plus what is archived is every entry.
  const kept = out.content.split("\n").filter((l) => l.startsWith("- ")).length;
  assert.equal(kept + entry.archived.length, 8);
  assert.equal(entry.archived[0].date, "2025-01-01", "the oldest goes first");

  const off = await store(memoryHost(), { limits }).save(alice, long, { baseRevision: 0 });
  assert.equal(off.status, "rejected", "compaction is opt-in");
});

test("the clock: options.now, falling back to Date when it throws or answers a non-string", async () => {
  for (const now of [() => { throw new Error("no clock"); }, () => 17, undefined, null]) {
    const s = new MemoryStore(memoryHost(), { now });
    const before = Date.now();
    await s.save(alice, V1, { baseRevision: 0 });
    const { updatedAt } = await s.load(alice);
    const t = Date.parse(updatedAt);
    assert.match(updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(t >= before - 1000 && t <= Date.now() + 1000, `${updatedAt} should be now`);
  }
});

// ---- errors ---------------------------------------------------------------

test("a host whose get rejects or throws: store/host-failed with the original error as cause", async () => {
  class HostError extends Error {}
  const original = new HostError("connection reset");
  original.extra = { retry: true };
  const hosts = {
    rejects: { get: async () => Promise.reject(original), put: async () => ({ ok: true, version: "1" }) },
    throws: { get: () => { throw original; }, put: async () => ({ ok: true, version: "1" }) },
  };
  for (const [what, host] of Object.entries(hosts)) {
    const s = store(host);
    for (const [method, call] of [
      ["load", () => s.load(alice)],
      ["save", () => s.save(alice, V1, { baseRevision: 0 })],
      ["history", () => s.history(alice)],
      ["revision", () => s.revision(alice, 1)],
      ["revert", () => s.revert(alice, 1, { baseRevision: 1 })],
    ]) {
      const error = await assertRejects(call(), "store/host-failed", `${what} ${method}`);
      assert.equal(error.cause, original, `${what} ${method}: cause should be the host's error itself`);
      assert.ok(error.cause instanceof HostError);
      assert.deepEqual(error.cause.extra, { retry: true });
      assert.match(error.message, /memdoc\/user\/alice/, "the message should name the key");
    }
  }
  // Not an Error: passed on as it is, never stringified.
  const odd = { reason: "quota" };
  const error = await assertRejects(store({ get: async () => Promise.reject(odd), put: async () => ({ ok: false }) }).load(alice), "store/host-failed", "odd");
  assert.equal(error.cause, odd);
});

test("a host whose put rejects: store/host-failed with the cause, and nothing changes", async () => {
  const inner = memoryHost();
  const s = store(inner);
  await s.save(alice, V1, { baseRevision: 0 });
  const original = new Error("write refused");
  for (const failing of [1, 2]) {
    let puts = 0;
    const host = {
      get: (k) => inner.get(k),
      put: (k, v, c) => (++puts === failing ? Promise.reject(original) : inner.put(k, v, c)),
    };
    const error = await assertRejects(store(host).save(alice, V2, { baseRevision: 1 }), "store/host-failed", `put #${failing}`);
    assert.equal(error.cause, original);
    const loaded = await s.load(alice);
    assert.equal(loaded.revision, 1, "a failed write should leave the memory as it was");
    assert.equal(loaded.content, V1);
  }
  assert.equal((await s.save(alice, V2, { baseRevision: 1 })).revision, 2, "the memory stays usable");
});

test("malformed host answers at each call are store/host-failed, never an empty memory", async () => {
  const badGets = [undefined, 42, "x", true, [], { value: 1, version: "1" }, { value: "x" }, { version: "1" }, { value: "x", version: 7 }];
  const badPuts = [undefined, null, 1, "ok", [], {}, { ok: "yes" }, { ok: 1, version: "1" }, { ok: true }, { ok: true, version: 5 }];
  const inner = memoryHost();
  await store(inner).save(alice, V1, { baseRevision: 0 });
  await store(inner).save(alice, V2, { baseRevision: 1 });
  // Every call of each operation, in order, answered with each malformed value.
  const operations = [
    ["load", (s) => s.load(alice)],
    ["history", (s) => s.history(alice)],
    ["revision", (s) => s.revision(alice, 1)],
    ["save", (s) => s.save(alice, V3, { baseRevision: 2 })],
    ["revert", (s) => s.revert(alice, 1, { baseRevision: 2 })],
  ];
  let checked = 0;
  for (const [name, run] of operations) {
    // Count the calls of a successful run on a copy of the state.
    const probe = counted(copyOf(inner));
    await run(store(probe));
    const calls = probe.calls;
    assert.ok(calls.length >= 1, name);
    for (let n = 0; n < calls.length; n += 1) {
      const [method] = calls[n];
      for (const bad of method === "get" ? badGets : badPuts) {
        const host = copyOf(inner);
        let i = 0;
        const wrapped = {
          get: (k) => (i++ === n ? Promise.resolve(bad) : host.get(k)),
          put: (k, v, c) => (i++ === n ? Promise.resolve(bad) : host.put(k, v, c)),
        };
        const what = `${name}: call ${n + 1} (${method}) answered ${JSON.stringify(bad)}`;
        const error = await assertRejects(run(store(wrapped)), "store/host-failed", what);
        assert.match(error.message, /malformed/, what);
        assert.equal(error.cause, undefined, `${what}: no host error to pass on`);
        checked += 1;
      }
    }
  }
  assert.ok(checked > 60, `${checked} malformed answers checked`);
});

/** A memory host holding a copy of `host`'s entries (same versions). */
function copyOf(host) {
  const entries = new Map();
  return {
    async get(key) {
      if (entries.has(key)) return entries.get(key);
      return host.get(key);
    },
    async put(key, value, condition) {
      const current = entries.has(key) ? entries.get(key) : await host.get(key);
      if ((current ? current.version : null) !== condition.expectedVersion) return { ok: false };
      const version = `copy-${entries.size + 1}`;
      entries.set(key, { value, version });
      return { ok: true, version };
    },
  };
}

test("a corrupt record is store/corrupt-record, not an empty memory", async () => {
  const host = { get: async () => ({ value: "not a record", version: "1" }), put: async () => ({ ok: false }) };
  await assertRejects(store(host).load(alice), "store/corrupt-record", "corrupt head");
  const other = { get: async () => ({ value: JSON.stringify({ format: "memdoc/99", kind: "head" }), version: "1" }), put: async () => ({ ok: false }) };
  const error = await rejection(store(other).load(alice));
  assert.ok(["store/unsupported-format", "store/corrupt-record"].includes(error.code), error.code);
});

test("bad references, ids, scopes, texts and options reject before any host call", async () => {
  const host = counted(memoryHost());
  const s = store(host);
  const badRefs = [
    [null, "options/invalid"],
    ["alice", "options/invalid"],
    [42, "options/invalid"],
    [{ scope: "user" }, "options/invalid"],
    [{ id: "alice" }, "options/invalid"],
    [{ scope: "user", id: 42 }, "options/invalid"],
    [{ scope: "everyone", id: "alice" }, "options/invalid-scope"],
    [{ scope: "User", id: "alice" }, "options/invalid-scope"],
    [{ scope: "user", id: "" }, "store/invalid-id"],
    [{ scope: "user", id: "../etc" }, "store/invalid-id"],
    [{ scope: "user", id: "a/b" }, "store/invalid-id"],
    [{ scope: "user", id: "-alice" }, "store/invalid-id"],
    [{ scope: "user", id: "a b" }, "store/invalid-id"],
    [{ scope: "user", id: "é" }, "store/invalid-id"],
    [{ scope: "user", id: "a".repeat(129) }, "store/invalid-id"],
  ];
  for (const [ref, code] of badRefs) {
    const what = JSON.stringify(ref);
    await assertRejects(s.load(ref), code, `load ${what}`);
    await assertRejects(s.save(ref, V1, { baseRevision: 0 }), code, `save ${what}`);
    await assertRejects(s.history(ref), code, `history ${what}`);
    await assertRejects(s.revision(ref, 1), code, `revision ${what}`);
    await assertRejects(s.revert(ref, 1, { baseRevision: 1 }), code, `revert ${what}`);
  }
  const badSaves = [
    [V1, undefined, "store/invalid-revision"],
    [V1, {}, "store/invalid-revision"],
    [V1, { baseRevision: -1 }, "store/invalid-revision"],
    [V1, { baseRevision: 1.5 }, "store/invalid-revision"],
    [V1, { baseRevision: NaN }, "store/invalid-revision"],
    [V1, { baseRevision: "1" }, "options/invalid"],
    [V1, { baseRevision: 0, onConflict: "maybe" }, "options/invalid"],
    [V1, { baseRevision: 0, actor: "x".repeat(257) }, "store/invalid-actor"],
    [V1, { baseRevision: 0, actor: 5 }, "options/invalid"],
    [42, { baseRevision: 0 }, "input/not-a-string"],
    [null, { baseRevision: 0 }, "input/not-a-string"],
  ];
  for (const [text, options, code] of badSaves) {
    await assertRejects(s.save(alice, text, options), code, `save ${JSON.stringify(options)}`);
  }
  for (const revision of [0, -1, 1.5, "1", null, undefined, Infinity]) {
    await assertRejects(s.revision(alice, revision), "store/invalid-revision", `revision ${String(revision)}`);
    await assertRejects(s.revert(alice, revision, { baseRevision: 0 }), "store/invalid-revision", `revert ${String(revision)}`);
  }
  assert.deepEqual(host.calls, [], "no host call should have been made");
  // A promise, never a synchronous throw.
  const p = s.load(null);
  assert.ok(p instanceof Promise);
  const error = await rejection(p);
  assert.ok(error instanceof Error);
  assert.equal(error.code, "options/invalid");
});

test("bad constructor arguments throw coded errors", () => {
  const cases = [
    [undefined, undefined, "options/invalid"],
    [null, undefined, "options/invalid"],
    [{ get: async () => null }, undefined, "options/invalid"],
    [{ get: 1, put: async () => ({ ok: false }) }, undefined, "options/invalid"],
    [memoryHost(), "fast", "options/invalid"],
    [memoryHost(), { historyDepth: 0 }, "options/invalid-history-depth"],
    [memoryHost(), { historyDepth: 1001 }, "options/invalid-history-depth"],
    [memoryHost(), { historyDepth: 2.5 }, "options/invalid-history-depth"],
    [memoryHost(), { keyPrefix: "a//b" }, "options/invalid-key-prefix"],
    [memoryHost(), { keyPrefix: "" }, "options/invalid-key-prefix"],
    [memoryHost(), { limits: { soft: 10, hard: 5 } }, "options/invalid-limits"],
    [memoryHost(), { limits: { hard: 0 } }, "options/invalid-limits"],
    [memoryHost(), { rewrite: "please" }, "options/invalid"],
    [memoryHost(), { now: 5 }, "options/invalid"],
    [memoryHost(), { compactOverLimit: "yes" }, "options/invalid"],
  ];
  for (const [host, options, code] of cases) {
    let error;
    try {
      new MemoryStore(host, options);
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof Error, `${JSON.stringify(options)} should throw`);
    assert.equal(error.code, code, `${JSON.stringify(options)}: ${error.message}`);
  }
  assert.ok(new MemoryStore(memoryHost()) instanceof MemoryStore, "options are optional");
  const s = new MemoryStore(memoryHost(), { limits: { soft: 5 }, historyDepth: 1, keyPrefix: "a/b", forbiddenTeamHeadings: ["Secrets"] });
  s.free();
});

test("forbiddenTeamHeadings and limits reach the saves", async () => {
  const s = store(memoryHost(), { forbiddenTeamHeadings: ["Secrets"], limits: { soft: 30, hard: 1000 } });
  const out = await s.save(team, "## Secrets\n- 2025-01-01: The wifi password", { baseRevision: 0 });
  assert.equal(out.status, "rejected");
  assert.ok(out.diagnostics.some((d) => d.code === "scope/personal-heading"));
  const big = await s.save(team, V2, { baseRevision: 0 });
  assert.equal(big.status, "saved");
  assert.equal(big.usage.level, "soft");
  assert.equal(big.usage.soft, 30);
});
