// PreparedMemory (docs/API.md, "Recall by meaning") through the built
// package: one memory prepared once answers query after query, with any
// options, by words or with vectors, exactly as recall and
// recallWithVectors of its text do each time (deepStrictEqual compares
// numbers with Object.is: to the bit, -0 apart from 0), with their errors;
// and its scored recall, whose selected items are read one by one, the same.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PreparedMemory, recall, recallItems, recallWithVectors } from "memdoc";
import { thrown } from "./helpers.mjs";

const WORDS = ["billing", "postgres", "deploy", "the", "a", "oslo", "Zürich", "ＰＯＳＴＧＲＥＳ", "中文", "release", "releases", "QA", "team", "😀", "v16", "don't", "k8s", "kubernetes", "max_connections", "grafana.acme.internal"];
const HEADINGS = ["## Decisions", "## Current Priorities", "## Facts", "## Preferences", "## Ｆａｃｔｓ"];

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function memory(next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const text = () => Array.from({ length: 1 + Math.floor(next() * 7) }, () => pick(WORDS)).join(" ");
  const lines = [];
  for (let i = Math.floor(next() * 40); i > 0; i--) {
    const kind = next();
    if (kind < 0.55) lines.push(`- 202${Math.floor(next() * 6)}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}: ${text()}`);
    else if (kind < 0.75) lines.push(text());
    else if (kind < 0.8) lines.push("");
    else if (kind < 0.85) lines.push(`\`\`\`\n${text()}\n\n## ${text()}\n\`\`\``);
    else lines.push(pick(HEADINGS));
  }
  return { text: lines.join("\n"), query: () => Array.from({ length: Math.floor(next() * 4) }, () => pick(WORDS)).join(" "), pick };
}

test("a prepared memory recalls, query after query, exactly as recall and recallWithVectors of its text", () => {
  const next = random(51);
  for (let round = 0; round < 150; round++) {
    const { text, query, pick } = memory(next);
    const prepared = new PreparedMemory(text);
    try {
      const items = recallItems(text);
      assert.deepEqual(prepared.items, items);
      for (let ask = 0; ask < 4; ask++) {
        const q = query();
        const options = {
          scope: pick(["team", "user"]),
          budget: 1 + Math.floor(next() * 400),
          ...(next() < 0.5 ? { pinned: ["facts"] } : {}),
          ...(next() < 0.5 ? { today: "2025-06-01" } : {}),
        };
        if (next() < 0.5) {
          assert.deepStrictEqual(prepared.recall(q, options), recall(text, q, options), `${JSON.stringify(text)} ${q}`);
        } else {
          const d = 3;
          const vector = () => Float32Array.from({ length: d }, () => next() * 2 - 1);
          const queryVector = vector();
          const itemVectors = new Float32Array(d * items.length);
          for (let i = 0; i < items.length; i++) itemVectors.set(vector(), i * d);
          const embedder = pick(["all-MiniLM-L6-v2", "an-uncalibrated-model"]);
          assert.deepStrictEqual(
            prepared.recallWithVectors(q, options, embedder, queryVector, itemVectors),
            recallWithVectors(text, q, options, embedder, queryVector, itemVectors),
            `${JSON.stringify(text)} ${q}`,
          );
        }
      }
    } finally {
      prepared.free();
    }
  }
});

test("a prepared memory listing a few omitted items answers the rest of the recall unchanged", () => {
  const next = random(52);
  let cut = 0;
  for (let round = 0; round < 60; round++) {
    const { text, query, pick } = memory(next);
    const prepared = new PreparedMemory(text);
    try {
      const items = recallItems(text);
      const q = query();
      const options = { scope: pick(["team", "user"]), budget: 1 + Math.floor(next() * 200) };
      const listed = Math.floor(next() * 4);
      const d = 3;
      const queryVector = Float32Array.from({ length: d }, () => next() * 2 - 1);
      const itemVectors = Float32Array.from({ length: d * items.length }, () => next() * 2 - 1);
      for (const [full, few] of [
        [recall(text, q, options), prepared.recall(q, options, listed)],
        [recallWithVectors(text, q, options, "all-MiniLM-L6-v2", queryVector, itemVectors), prepared.recallWithVectors(q, options, "all-MiniLM-L6-v2", queryVector, itemVectors, listed)],
      ]) {
        if (full.omitted.length > listed) cut += 1;
        assert.deepStrictEqual(few, { ...full, omitted: full.omitted.slice(0, listed) }, `${JSON.stringify(text)} ${q}`);
        assert.equal(few.totals.omitted, full.omitted.length);
      }
    } finally {
      prepared.free();
    }
  }
  assert.ok(cut > 20, `omitted items were left out in ${cut} recalls`);
});

/** A ScoredRecall's selected items, read every way they can be, checked against the recall's, and the rest of the two equal. */
function sameScored(scored, full, message) {
  const { selected, ...rest } = scored;
  const { selected: items, ...others } = full;
  assert.deepStrictEqual(rest, others, message);
  assert.equal(selected.length, items.length, message);
  items.forEach((item, k) => {
    assert.ok(Object.is(selected.score(k), item.score), message);
    assert.equal(selected.text(k), item.text, message);
    assert.equal(selected.textLength(k), item.text.length, message);
    assert.equal(selected.section(k), item.section, message);
    assert.equal(selected.date(k), item.date, message);
  });
  // Out of order, then all by iterating.
  for (let k = items.length - 1; k >= 0; k--) assert.deepStrictEqual(selected.item(k), items[k], message);
  assert.deepStrictEqual([...selected], items, message);
}

test("a prepared memory's scored recall reads each selected item as recall answers it, and the rest of the recall unchanged", () => {
  const next = random(53);
  let many = 0;
  for (let round = 0; round < 80; round++) {
    const { text, query, pick } = memory(next);
    const prepared = new PreparedMemory(text);
    try {
      const items = recallItems(text);
      const q = query();
      const options = { scope: pick(["team", "user"]), budget: 1 + Math.floor(next() * 400) };
      const listed = next() < 0.5 ? undefined : Math.floor(next() * 4);
      const d = 3;
      const queryVector = Float32Array.from({ length: d }, () => next() * 2 - 1);
      const itemVectors = Float32Array.from({ length: d * items.length }, () => next() * 2 - 1);
      const full = prepared.recall(q, options, listed);
      if (full.selected.length > 1) many += 1;
      sameScored(prepared.recallScored(q, options, listed), full, `${JSON.stringify(text)} ${q}`);
      sameScored(
        prepared.recallScoredWithVectors(q, options, "all-MiniLM-L6-v2", queryVector, itemVectors, listed),
        prepared.recallWithVectors(q, options, "all-MiniLM-L6-v2", queryVector, itemVectors, listed),
        `${JSON.stringify(text)} ${q}`,
      );
    } finally {
      prepared.free();
    }
  }
  assert.ok(many > 20, `${many} recalls selected more than one item`);
});

test("a prepared memory throws recall's coded errors, and keeps answering after one", () => {
  const text = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
  assert.equal(thrown(() => new PreparedMemory(42)).code, "input/not-a-string");
  const prepared = new PreparedMemory(text);
  try {
    assert.equal(thrown(() => prepared.recall(7)).code, "input/not-a-string");
    for (const options of [{ budget: 0 }, { scope: "everyone" }, { today: "2025-02-30" }]) {
      const expected = thrown(() => recall(text, "postgres", options)).code;
      assert.equal(thrown(() => prepared.recall("postgres", options)).code, expected, JSON.stringify(options));
    }
    assert.equal(thrown(() => prepared.recallWithVectors("postgres", {}, "m", [1, 0], [1, 0])).code, "options/invalid-vectors");
    assert.equal(thrown(() => prepared.recallScored("postgres", { budget: 0 })).code, "options/invalid-budget");
    assert.equal(thrown(() => prepared.recallScoredWithVectors("postgres", {}, "m", [1, 0], [1, 0])).code, "options/invalid-vectors");
    assert.deepStrictEqual(prepared.recall("postgres"), recall(text, "postgres"));
  } finally {
    prepared.free();
  }
});

test("a prepared memory holding its item vectors recalls, query after query, exactly as recallWithVectors of its text", () => {
  const next = random(54);
  let held = 0;
  for (let round = 0; round < 120; round++) {
    const { text, query, pick } = memory(next);
    const prepared = new PreparedMemory(text);
    try {
      const items = recallItems(text);
      const d = 1 + Math.floor(next() * 8);
      const vector = () => Float32Array.from({ length: d }, () => next() * 2 - 1);
      const itemVectors = new Float32Array(d * items.length);
      for (let i = 0; i < items.length; i++) itemVectors.set(vector(), i * d);
      const embedder = pick(["all-MiniLM-L6-v2", "all-MiniLM-L6-v2-static-256-v2", "multilingual-e5-small-q4", "an-uncalibrated-model"]);
      assert.equal(prepared.heldVectors, null);
      prepared.holdVectors(embedder, next() < 0.5 ? itemVectors : [...itemVectors], d);
      assert.deepEqual(prepared.heldVectors, { embedder, dimensions: d });
      held += items.length;
      // The caller's array may change afterwards: the memory holds its own copy.
      const given = Float32Array.from(itemVectors);
      itemVectors.fill(0);
      for (let ask = 0; ask < 4; ask++) {
        const q = query();
        const options = { scope: pick(["team", "user"]), budget: 1 + Math.floor(next() * 400), ...(next() < 0.5 ? { today: "2025-06-01" } : {}) };
        const queryVector = vector();
        const listed = next() < 0.5 ? undefined : Math.floor(next() * 4);
        const full = recallWithVectors(text, q, options, embedder, queryVector, given);
        const few = listed === undefined ? full : { ...full, omitted: full.omitted.slice(0, listed) };
        assert.deepStrictEqual(prepared.recallWithHeldVectors(q, options, queryVector, listed), few, `${JSON.stringify(text)} ${q}`);
        sameScored(prepared.recallScoredWithHeldVectors(q, options, queryVector, listed), few, `${JSON.stringify(text)} ${q}`);
      }
    } finally {
      prepared.free();
    }
  }
  assert.ok(held > 1000, `${held} item vectors held`);
});

test("a prepared memory refuses item vectors that do not fit its items, keeps those it held, and checks each query's vector", () => {
  const text = "## Facts\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Office in Oslo";
  const prepared = new PreparedMemory(text);
  try {
    const code = (fn) => thrown(fn).code;
    assert.equal(code(() => prepared.recallWithHeldVectors("postgres", {}, [1, 0])), "options/invalid-vectors", "nothing held yet");
    for (const [vectors, dimensions] of [
      [[1, 0, 0], 2],
      [[1, 0, 0, 1, 0], 2],
      [[1, Number.NaN, 0, 1], 2],
      [[1, 0, Infinity, 1], 2],
      [[], 2],
      [[1, 0, 0, 1], 0],
      [[1, 0, 0, 1], 1.5],
      [[1, 0, 0, 1], -2],
    ]) {
      assert.equal(code(() => prepared.holdVectors("m", vectors, dimensions)), "options/invalid-vectors", `${vectors} ${dimensions}`);
      assert.equal(prepared.heldVectors, null, "nothing held");
    }
    assert.equal(code(() => prepared.holdVectors(7, [1, 0, 0, 1], 2)), "options/invalid");
    prepared.holdVectors("all-MiniLM-L6-v2", [0.9, 0.2, 0, 1], 2);
    assert.equal(code(() => prepared.holdVectors("other", [0.9, Number.NaN, 0, 1], 2)), "options/invalid-vectors");
    assert.deepEqual(prepared.heldVectors, { embedder: "all-MiniLM-L6-v2", dimensions: 2 }, "a refused hold changes nothing");
    const expected = recallWithVectors(text, "database", {}, "all-MiniLM-L6-v2", [1, 0.1], [0.9, 0.2, 0, 1]);
    for (const queryVector of [[1], [1, 0.1, 0], [], [Number.NaN, 1], [1, -Infinity]]) {
      assert.equal(code(() => prepared.recallWithHeldVectors("database", {}, queryVector)), "options/invalid-vectors", `${queryVector}`);
      assert.equal(code(() => prepared.recallScoredWithHeldVectors("database", {}, queryVector)), "options/invalid-vectors", `${queryVector}`);
    }
    assert.equal(code(() => prepared.recallWithHeldVectors("database", { budget: 0 }, [1, 0.1])), "options/invalid-budget", "the options first, as recallWithVectors");
    assert.deepStrictEqual(prepared.recallWithHeldVectors("database", {}, [1, 0.1]), expected, "still answering");
    // Another embedder's, of other dimensions, replace them.
    prepared.holdVectors("an-uncalibrated-model", [1, 0, 0, 0, 1, 0], 3);
    assert.deepStrictEqual(prepared.recallWithHeldVectors("database", {}, [1, 0, 0]), recallWithVectors(text, "database", {}, "an-uncalibrated-model", [1, 0, 0], [1, 0, 0, 0, 1, 0]));
  } finally {
    prepared.free();
  }
  const empty = new PreparedMemory("## Facts");
  try {
    empty.holdVectors("m", [], 4);
    assert.deepStrictEqual(empty.recallWithHeldVectors("x", {}, [1, 0, 0, 0]), recallWithVectors("## Facts", "x", {}, "m", [1, 0, 0, 0], []));
  } finally {
    empty.free();
  }
});
