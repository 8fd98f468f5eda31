// A store keeps the value it last wrote or read with its conversion, and the
// content it last saved or loaded with its JavaScript string
// (bindings/wasm/src/wasm/text/kept.rs, `Kept`): every call must still answer exactly what the
// host holds, whoever wrote it, however the host hands strings back.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";

const team = { scope: "team", id: "acme" };
const limits = { soft: 100_000, hard: 200_000 };

/** A memory of `sections` sections, each of `entries` dated entries, long enough to be kept (over 128 units). */
function memory(sections, entries = 4, extra = "") {
  return sections
    .map((title, s) =>
      [`## ${title}`, ...Array.from({ length: entries }, (_, i) => `- 2025-01-${String(i + 1).padStart(2, "0")}: ${title} fact ${s}.${i}${extra ? ` ${extra}` : ""}`)].join("\n"),
    )
    .join("\n\n");
}

/** `host` answering every value as a new string, equal to the stored one but never the same object. */
function copying(host) {
  return {
    get: async (key) => {
      const answer = await host.get(key);
      return answer && { value: [...answer.value].join(""), version: answer.version };
    },
    put: (key, value, condition) => host.put(key, value, condition),
    delete: (key) => host.delete(key),
  };
}

for (const [name, wrap] of [
  ["a host that keeps strings as they are", (h) => h],
  ["a host that hands back copies", copying],
]) {
  test(`${name}: each store loads what the other saved last`, async () => {
    const host = memoryHost();
    const a = new MemoryStore(wrap(host), { limits });
    const b = new MemoryStore(wrap(host), { limits });
    const v1 = memory(["Facts", "Préférences 日本", "Emoji 😀"]);
    const v2 = v1.replace("Facts fact 0.2", "Facts fact 0.2 changed");
    const v3 = memory(["Other"], 6, "é");

    assert.equal((await a.save(team, v1, { baseRevision: 0 })).revision, 1);
    assert.equal((await a.load(team)).content, v1);
    assert.equal((await b.load(team)).content, v1);
    // One line changed by the other store, then everything.
    assert.equal((await b.save(team, v2, { baseRevision: 1 })).content, v2);
    assert.equal((await a.load(team)).content, v2);
    assert.equal((await a.load(team)).content, v2);
    assert.equal((await a.save(team, v3, { baseRevision: 2 })).content, v3);
    assert.equal((await b.load(team)).content, v3);
    assert.equal((await a.load(team)).content, v3);
    // A revert to the first revision, from a store that holds the third.
    const reverted = await b.revert(team, 1, { baseRevision: 3 });
    assert.equal(reverted.content, v1);
    assert.equal((await a.load(team)).content, v1);
    assert.equal((await a.revision(team, 2)), v2);
    assert.deepEqual(
      (await a.history(team)).map((e) => e.revision),
      [4, 3, 2, 1],
    );
  });
}

test("content saved with a lone surrogate loads with U+FFFD, as it was stored", async () => {
  const store = new MemoryStore(memoryHost(), { limits });
  const text = memory(["Lone \ud800 surrogate", "Next"]);
  const stored = text.replaceAll("\ud800", "\ufffd");
  const saved = await store.save(team, text, { baseRevision: 0 });
  assert.equal(saved.content, stored);
  assert.equal((await store.load(team)).content, stored);
  assert.equal((await store.load(team)).content, stored);
});

test("a head rewritten under the store, to a record of the same length, is read afresh", async () => {
  const host = memoryHost();
  let head;
  // The head record is written after the snapshot: the last key put.
  const spy = { ...host, put: (key, value, condition) => ((head = key), host.put(key, value, condition)) };
  const store = new MemoryStore(spy, { limits });
  const v1 = memory(["Facts", "More"]);
  await store.save(team, v1, { baseRevision: 0 });
  assert.equal((await store.load(team)).content, v1);
  // Another writer's head: the same record but for one character of its content.
  const { value, version } = await host.get(head);
  const rewritten = value.replace("Facts fact 0.0", "Facts fact 0.1");
  assert.equal(rewritten.length, value.length);
  assert.notEqual(rewritten, value);
  assert.equal((await host.put(head, rewritten, { expectedVersion: version })).ok, true);
  const v2 = v1.replace("Facts fact 0.0", "Facts fact 0.1");
  assert.equal((await store.load(team)).content, v2);
  assert.equal((await store.save(team, v1, { baseRevision: 1 })).revision, 2);
  assert.equal((await store.load(team)).content, v1);
});

test("after saves that each read back the head kept from the one before, every record and revision is as written", async () => {
  const host = memoryHost();
  const store = new MemoryStore(host, { limits });
  const base = memory(["Facts", "Préférences 日本", "Emoji 😀", "Back\\slash \"quoted\""], 8);
  const lines = base.split("\n");
  const revisions = [
    base,
    `${base}\n- 2025-02-01: added at the end`,
    [...lines.slice(0, 5), "- 2025-02-02: inserted in the middle é", ...lines.slice(5)].join("\n"),
    lines.filter((_, i) => i !== 3).join("\n"),
    memory(["Something else entirely"], 12),
    base,
  ];
  let revision = 0;
  for (const text of revisions) {
    const outcome = await store.save(team, text, { baseRevision: revision });
    assert.equal(outcome.content, text);
    revision = outcome.revision;
    assert.equal((await store.load(team)).content, text);
  }
  for (const key of host.keys()) {
    const { value } = await host.get(key);
    // The writer's bytes: compact JSON in the records' field order, which
    // JSON.stringify writes again from the value read.
    assert.equal(JSON.stringify(JSON.parse(value)), value, key);
  }
  for (const [at, text] of revisions.entries()) assert.equal(await store.revision(team, at + 1), text);
});

test("a chain of saves that each add to the memory writes the bytes a store converting every record whole writes", async () => {
  // Over the memory host a store's records are made of slices of the ones
  // before them, cut from the parts those were joined from (up to 16 parts,
  // then one string again); over a host that hands back copies, every read
  // is converted. Both must write the same records under the same keys.
  const now = () => "2025-06-01T00:00:00.000Z";
  const sliced = memoryHost();
  const copied = memoryHost();
  const stores = [new MemoryStore(sliced, { limits, now }), new MemoryStore(copying(copied), { limits, now })];
  // Long enough for the content to be most of a head with 20 audit entries.
  let text = memory(["Facts", "Préférences 日本", "Emoji 😀"], 60);
  const written = [];
  for (let i = 0; i < 40; i += 1) {
    // 30 at the end (more than 16 parts), then in the middle, at the start
    // of a section and at the end in turn.
    const entry = `- 2025-03-${String((i % 28) + 1).padStart(2, "0")}: step ${i} 😀 日本 "q" \\ é`;
    const lines = text.split("\n");
    const at = i < 30 ? lines.length : [lines.length >> 1, 1, lines.length][i % 3];
    text = [...lines.slice(0, at), entry, ...lines.slice(at)].join("\n");
    for (const store of stores) {
      const outcome = await store.save(team, text, { baseRevision: i });
      assert.deepEqual([outcome.status, outcome.revision, outcome.content], ["saved", i + 1, text], `save ${i + 1}`);
    }
    written.push(text);
  }
  assert.deepEqual(sliced.keys().sort(), copied.keys().sort());
  for (const key of sliced.keys()) {
    const [a, b] = [await sliced.get(key), await copied.get(key)];
    assert.equal(a.value, b.value, key);
    const record = JSON.parse(a.value);
    assert.equal(JSON.stringify(record), a.value, key);
    // Every record holds its revision's text (the head the last one).
    assert.equal(record.content, written[record.revision - 1], key);
  }
  const fresh = new MemoryStore(sliced, { limits, now });
  assert.equal((await fresh.load(team)).content, text);
  for (const revision of [40, 30, 21]) assert.equal(await fresh.revision(team, revision), written[revision - 1]);
});
