// The hub's prepared memories (hub/src/prepared-memories.js, docs/HUB.md,
// "Recall by meaning"), in Node on the built package: a memory's text is
// prepared once per team and recalled from as recall does; another team
// never gets the same one; past the cache's bytes the least recently used
// is freed, and a text made ready again answers the same; another text of
// a memory replaces the one held; item vectors held by a memory recall as
// recallWithVectors does, count toward the cache's bytes, and those
// lacking items are let go once the memory is indexed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { recall, recallItems, recallWithVectors } from "memdoc";

import { forgetMissingVectors, heldVectors, memoryItems, PREPARED_MEMORY_BYTES, withItemVectors, withPreparedMemory } from "../src/prepared-memories.js";

/** A team memory of about `chars` characters, told apart by `n`. */
const memory = (chars, n) => {
  const lines = [`## Decisions ${n}`];
  for (let i = 0; lines.join("\n").length < chars; i += 1) lines.push(`- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: decision ${n}.${i} about the release train and its checks`);
  return lines.join("\n");
};

/** The memory the texts below are of. */
const decisions = { scope: "team", id: "decisions" };

test("a team's memory is prepared once and recalls as recall does; another team's is its own", () => {
  const a = { id: "team-a" };
  const b = { id: "team-b" };
  const text = memory(5000, 0);
  const first = withPreparedMemory(a, decisions, text, (m) => m);
  assert.equal(withPreparedMemory(a, decisions, text, (m) => m), first, "the same prepared memory for the same team and text");
  assert.notEqual(withPreparedMemory(b, decisions, text, (m) => m), first, "never shared across teams");
  for (const q of ["release checks", "decision 0.3", ""]) {
    const options = { scope: "team", budget: 300, today: "2025-02-01" };
    assert.deepStrictEqual(withPreparedMemory(a, decisions, text, (m) => m.recall(q, options)), recall(text, q, options), q);
  }
  assert.deepEqual(memoryItems(a, decisions, text), recallItems(text));
  assert.equal(thrown(() => withPreparedMemory(a, decisions, text, (m) => m.recall("x", { budget: 0 }))).code, "options/invalid-budget", "errors are the engine's");
});

test("past the cache's bytes the least recently used memories are freed, and made again when asked", () => {
  const team = { id: "team-many" };
  const texts = [];
  const prepared = [];
  // 5,000 characters of text are well over 40 KB prepared and keyed: this many are more than the cache holds.
  for (let n = 0; n * 5000 * 8 < 1.5 * PREPARED_MEMORY_BYTES; n += 1) {
    texts.push(memory(5000, n));
    prepared.push(withPreparedMemory(team, { scope: "team", id: `m${n}` }, texts[n], (m) => m));
  }
  const q = "decision release";
  const last = texts.length - 1;
  assert.equal(withPreparedMemory(team, { scope: "team", id: `m${last}` }, texts[last], (m) => m), prepared[last], "the newest is kept");
  assert.throws(() => prepared[0].items, /null pointer/, "the oldest was freed");
  const again = withPreparedMemory(team, { scope: "team", id: "m0" }, texts[0], (m) => m);
  assert.notEqual(again, prepared[0], "made again");
  assert.deepStrictEqual(again.recall(q, { scope: "team" }), recall(texts[0], q, { scope: "team" }));
});

test("a memory's prepared text answers only for that very text; another text of the memory replaces it", () => {
  const team = { id: "team-edits" };
  const before = memory(2000, 1);
  const after = `${before}\n- 2025-02-01: decision 1.x about the staging cluster`;
  const first = withPreparedMemory(team, decisions, before, (m) => m);
  const edited = withPreparedMemory(team, decisions, after, (m) => m);
  assert.notEqual(edited, first, "another text is prepared again");
  assert.deepEqual(edited.items, recallItems(after));
  assert.throws(() => first.items, /null pointer/, "the memory's earlier text was freed");
  assert.equal(withPreparedMemory(team, decisions, after, (m) => m), edited, "the same text again is the one held");
  // Another memory with the same text has a prepared memory of its own.
  assert.notEqual(withPreparedMemory(team, { scope: "user", id: "decisions" }, after, (m) => m), edited);
});

/** Vectors of `dimensions` numbers for `count` items, told apart by `seed`. */
const vectorsFor = (count, dimensions, seed) => Float32Array.from({ length: count * dimensions }, (_, i) => Math.sin(seed + i));

test("item vectors read once are held by the prepared memory and recalled with, as recallWithVectors does", () => {
  const team = { id: "team-held" };
  const text = memory(3000, 7);
  const count = recallItems(text).length;
  const model = "all-MiniLM-L6-v2";
  const read = { vectors: vectorsFor(count, 8, 1), missing: 2 };
  const query = vectorsFor(1, 8, 99);
  const options = { scope: "team", budget: 400, today: "2025-02-01" };
  const expected = recallWithVectors(text, "release checks", options, model, query, read.vectors);
  assert.equal(heldVectors(team, decisions, text, model, 8), undefined, "nothing held before");
  const recallHeld = (r) => withItemVectors(team, decisions, text, model, 8, r, (m, vectors) => (vectors === null ? m.recallWithHeldVectors("release checks", options, query) : assert.fail("held")));
  assert.deepStrictEqual(recallHeld(read), expected);
  assert.equal(heldVectors(team, decisions, text, model, 8), 2, "held, with the items they lack");
  assert.equal(heldVectors(team, decisions, text, model, 16), undefined, "of other dimensions: none");
  assert.equal(heldVectors(team, decisions, text, "another-model", 8), undefined, "another embedder's: none");
  assert.equal(heldVectors(team, decisions, `${text}\n- 2025-03-01: new`, model, 8), undefined, "another text: none");
  assert.deepStrictEqual(recallHeld(null), expected, "recalled again with the vectors held, nothing read");
  // Once the memory is indexed, vectors that lacked items are recalled with no more: read again.
  const prepared = withPreparedMemory(team, decisions, text, (m) => m);
  forgetMissingVectors(team, decisions);
  assert.equal(heldVectors(team, decisions, text, model, 8), undefined);
  assert.equal(recallHeld(null), undefined, "nothing held: to be read again");
  assert.equal(withPreparedMemory(team, decisions, text, (m) => m), prepared, "the prepared memory is kept");
  recallHeld({ vectors: read.vectors, missing: 0 });
  forgetMissingVectors(team, decisions);
  assert.equal(heldVectors(team, decisions, text, model, 8), 0, "vectors lacking nothing are kept");
});

test("vectors held count toward the cache's bytes: memories holding them push the least recently used out sooner", () => {
  const team = { id: "team-held-bytes" };
  const text = memory(5000, 8);
  const count = recallItems(text).length;
  // Each memory holds 384-number vectors of its items: several times its text's bytes.
  const dimensions = 384;
  const each = text.length * 10 + count * dimensions * 4;
  assert.ok(each > 3 * text.length * 10, "the vectors outweigh the text");
  const held = [];
  for (let n = 0; n * each < 1.2 * PREPARED_MEMORY_BYTES; n += 1) {
    const ref = { scope: "team", id: `h${n}` };
    held.push(withItemVectors(team, ref, text, "m", dimensions, { vectors: vectorsFor(count, dimensions, n), missing: 0 }, (m) => m));
  }
  const n = held.length;
  assert.ok(n * text.length * 10 < PREPARED_MEMORY_BYTES / 2, "their texts alone would all be kept");
  assert.throws(() => held[0].items, /null pointer/, "the oldest was freed for the vectors of the newest");
  assert.equal(heldVectors(team, { scope: "team", id: `h${n - 1}` }, text, "m", dimensions), 0, "the newest is kept with its vectors");
});

function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("should have thrown");
}
