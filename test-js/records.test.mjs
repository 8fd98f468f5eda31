// The stored records as the package writes and reads them: WebAssembly
// writes them through the host's JSON, natively the store uses serde_json,
// and both must write the same bytes (docs/record-format.md; tests/store/records.rs
// checks the native half against the same fixture). Reading is as strict as
// natively: unknown fields, fractions, wrong types and missing fields are
// store/corrupt-record.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { MemoryStore } from "memdoc";
import { rejection, root } from "./helpers.mjs";

const fixture = JSON.parse(readFileSync(join(root, "tests", "fixtures", "records.json"), "utf8"));

/** A compare-and-swap host over a Map, with the Map to look into. */
function mapHost(entries = new Map()) {
  let version = 0;
  return {
    entries,
    get: async (key) => (entries.has(key) ? { value: entries.get(key).value, version: entries.get(key).version } : null),
    put: async (key, value, { expectedVersion }) => {
      if ((entries.get(key)?.version ?? null) !== expectedVersion) return { ok: false };
      version += 1;
      entries.set(key, { value, version: String(version) });
      return { ok: true, version: String(version) };
    },
    delete: async (key) => {
      entries.delete(key);
    },
  };
}

function fixtureStore(host) {
  const times = [...fixture.now];
  return new MemoryStore(host, { now: () => times.shift() });
}

test("the records are the fixture's bytes, as the native store writes them", async () => {
  const host = mapHost();
  const store = fixtureStore(host);
  for (const [i, save] of fixture.saves.entries()) {
    const out = await store.save(fixture.ref, save.text, { baseRevision: i, actor: save.actor });
    assert.equal(out.status, "saved");
  }
  const stored = Object.fromEntries([...host.entries].map(([k, v]) => [k, v.value]).sort(([a], [b]) => (a < b ? -1 : 1)));
  assert.deepEqual(stored, fixture.records);
});

test("the fixture's records read back", async () => {
  const entries = new Map(Object.entries(fixture.records).map(([k, value]) => [k, { value, version: "1" }]));
  const store = new MemoryStore(mapHost(entries), { now: () => "2025-06-02T00:00:00.000Z" });
  const head = JSON.parse(fixture.records["memdoc/team/eng"]);
  const loaded = await store.load(fixture.ref);
  assert.equal(loaded.content, head.content);
  assert.equal(loaded.revision, 2);
  assert.equal(await store.revision(fixture.ref, 1), JSON.parse(fixture.records[head.snapshots[1].key]).content);
  const history = await store.history(fixture.ref);
  assert.deepEqual(
    history.map((a) => [a.revision, a.actor, a.chars, a.delta, a.codes]),
    head.audit.map((a) => [a.revision, a.actor, a.chars, a.delta, a.codes]),
  );
});

test("records written with the content in the middle, as earlier stores wrote them, read and save on", async () => {
  const earlier = fixture.earlierRecords;
  const head = JSON.parse(earlier["memdoc/team/eng"]);
  assert.ok(earlier["memdoc/team/eng"].includes('"revision":2,"content":'));
  const host = mapHost(new Map(Object.entries(earlier).map(([k, value]) => [k, { value, version: "1" }])));
  const store = new MemoryStore(host, { now: () => "2025-06-02T00:00:00.000Z" });
  const loaded = await store.load(fixture.ref);
  assert.equal(loaded.content, head.content);
  assert.equal(await store.revision(fixture.ref, 1), JSON.parse(earlier[head.snapshots[1].key]).content);
  assert.deepEqual((await store.history(fixture.ref)).map((a) => [a.revision, a.chars]), [[2, 148], [1, 39]]);
  const next = `${loaded.content}\n- 2025-03-18: one more`;
  const saved = await store.save(fixture.ref, next, { baseRevision: 2 });
  assert.equal(saved.revision, 3);
  const written = host.entries.get("memdoc/team/eng").value;
  assert.equal(JSON.parse(written).content, next);
  assert.ok(written.startsWith(`{"content":${JSON.stringify(next)},`), "the content is first");
  assert.equal(await store.revision(fixture.ref, 2), head.content);
});

test("a head that is not exactly a memdoc/1 record is store/corrupt-record", async () => {
  const head = JSON.parse(fixture.records["memdoc/team/eng"]);
  const broken = {
    "an unknown field": { ...head, extra: true },
    "an unknown field in an audit entry": { ...head, audit: [{ ...head.audit[0], extra: 1 }, head.audit[1]] },
    "a fraction": { ...head, revision: 1.5 },
    "a number beyond 2^53": { ...head, audit: [{ ...head.audit[0], chars: 2 ** 60 }, head.audit[1]] },
    "a negative count": { ...head, audit: [{ ...head.audit[0], chars: -1 }, head.audit[1]] },
    "a number as a string": { ...head, revision: "2" },
    "null content": { ...head, content: null },
    "a missing field": Object.fromEntries(Object.entries(head).filter(([k]) => k !== "updatedAt")),
    "an object for a list": { ...head, snapshots: { 0: head.snapshots[0] } },
    "a list for the record": [head],
  };
  for (const [what, value] of Object.entries(broken)) {
    const entries = new Map(Object.entries(fixture.records).map(([k, v]) => [k, { value: v, version: "1" }]));
    entries.set("memdoc/team/eng", { value: JSON.stringify(value), version: "1" });
    const error = await rejection(fixtureStore(mapHost(entries)).load(fixture.ref));
    assert.equal(error.code, "store/corrupt-record", what);
  }
  const entries = new Map([["memdoc/team/eng", { value: "{not json", version: "1" }]]);
  const error = await rejection(fixtureStore(mapHost(entries)).load(fixture.ref));
  assert.equal(error.code, "store/corrupt-record");
  assert.match(error.message, /not a memdoc record/);
});

test("a head whose text JSON.parse would take but the store's reader refuses, as natively", async () => {
  const text = fixture.records["memdoc/team/eng"];
  const edited = (from, to) => {
    assert.ok(text.includes(from), from);
    return text.replace(from, to);
  };
  const refused = {
    "a field given twice": edited('"revision":2,', '"revision":2,"revision":2,'),
    "an exponent": edited('"revision":2,', '"revision":2e0,'),
    "a whole number with a fraction": edited('"revision":2,', '"revision":2.0,'),
    "negative zero": edited('"delta":109', '"delta":-0'),
    "a lone surrogate": edited('"updatedAt":"', '"updatedAt":"\\ud800'),
    "nesting deeper than 16": edited('"codes":[]', `"codes":${"[".repeat(20)}${"]".repeat(20)}`),
  };
  for (const [what, value] of Object.entries(refused)) {
    assert.doesNotThrow(() => JSON.parse(value), what);
    const entries = new Map(Object.entries(fixture.records).map(([k, v]) => [k, { value: v, version: "1" }]));
    entries.set("memdoc/team/eng", { value, version: "1" });
    const error = await rejection(fixtureStore(mapHost(entries)).load(fixture.ref));
    assert.equal(error.code, "store/corrupt-record", what);
  }
  // White space and escapes a record may hold are read.
  const spaced = JSON.stringify(JSON.parse(text), null, 2).replace('"scope": "team"', '"scope": "\\u0074eam"');
  const entries = new Map(Object.entries(fixture.records).map(([k, v]) => [k, { value: v, version: "1" }]));
  entries.set("memdoc/team/eng", { value: spaced, version: "1" });
  assert.equal((await fixtureStore(mapHost(entries)).load(fixture.ref)).content, JSON.parse(text).content);
});
