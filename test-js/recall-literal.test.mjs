// `recall` builds its result in JavaScript from numbers and one string
// (bindings/wasm/src/wire/recall/). Here the package's `recall`
// (pkg/) is compared with the serde-wasm-bindgen conversion of the same
// result over many memories, queries and options: the test-panic build
// (scripts/test.mjs makes it in target/pkg-test-panic) has an export,
// `__recallThroughSerde`, that converts through serde only; the package users
// get has no such export.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { genDoc } from "../bench/gen_doc.mjs";
import { shapes } from "../bench/growth.mjs";
import { pkgDir, root } from "./helpers.mjs";

const testBuild = join(root, "target", "pkg-test-panic");
assert.ok(existsSync(join(testBuild, "node.js")), `${testBuild} is missing: run node scripts/build.mjs --test-panic --out ${testBuild}`);
const memdoc = await import(pathToFileURL(join(pkgDir, "node.js")));
// The glue's internals stay out of the package's entries: the export is the
// glue's own, of the instance node.js loaded.
await import(pathToFileURL(join(testBuild, "node.js")));
const { __recallThroughSerde: throughSerde } = await import(pathToFileURL(join(testBuild, "memdoc.js")));

const queries = ["", "memdoc", "dark mode standups", "café 記憶 😀", "entry e3 line", "nothing matches this"];
const budgets = [undefined, { budget: 1 }, { budget: 120 }, { budget: 100_000, scope: "team", pinned: ["Log", "Same"] }];

/** Assert that `recall(text, query, options)` is what the serde conversion gives. */
function same(text, query, options, what) {
  const result = memdoc.recall(text, query, options);
  assert.deepStrictEqual(result, throughSerde(text, query, options), `${what} / ${JSON.stringify(query)} / ${JSON.stringify(options)}`);
  // The same key order as serde's, which JSON.stringify shows.
  assert.equal(JSON.stringify(result), JSON.stringify(throughSerde(text, query, options)), what);
  return result;
}

test("generated documents with every query and budget", () => {
  let omitted = 0;
  let selected = 0;
  for (const n of [0, 1_000, 25_000]) {
    for (const query of queries) {
      for (const options of budgets) {
        const r = same(genDoc(n), query, options, `genDoc(${n})`);
        omitted += r.omitted.length;
        selected += r.selected.length;
      }
    }
  }
  // Both lists, with every reason, went through the comparison.
  assert.ok(selected > 300 && omitted > 1_000, `${selected} selected, ${omitted} omitted`);
});

test("the hostile shapes of the growth benchmark", () => {
  const reasons = new Set();
  for (const [name, shape] of Object.entries(shapes)) {
    for (const n of [1, 10, 500]) {
      for (const query of ["", "entry line e3 word", "H7"]) {
        for (const r of [same(shape(n), query, { budget: 200 }, `${name}(${n})`), same(shape(n), query, undefined, `${name}(${n})`)]) {
          for (const item of r.omitted) reasons.add(item.reason);
        }
      }
    }
  }
  assert.deepStrictEqual([...reasons].sort(), ["budget", "no-match", "superseded", "too-large"]);
});

test("edge cases: titles and terms repeated apart, undated lines, fences, lone surrogates", () => {
  const cases = [
    "",
    "no heading at all\n- 2025-01-01: entry before any heading",
    "## A\n- 2025-01-01: a x\n## B\n- 2025-01-02: b x\n## A\n- 2025-01-03: a again x",
    Array.from({ length: 30 }, (_, i) => `## T${i % 13}\n- 2025-01-${String((i % 28) + 1).padStart(2, "0")}: x y${i % 4}`).join("\n"),
    "## Code\n```\nx inside\n## not a heading\n```\nx after\n```rust\nunclosed x",
    "## É café 記憶 😀\n- 2025-01-01: 😀 x 記憶\n  raw x 😀  \n## 😀\nx",
    "## A\ud800\n- 2025-01-01: x\udc00y x\nlone \udfff x",
    "## Legacy\n- (2025-01-02) [fact] x legacy\n- 2025-13-01: x bad date",
  ];
  for (const text of cases) {
    for (const query of ["", "x", "x y1 y3", "café 記憶", "\ud800 x"]) {
      for (const options of [undefined, { budget: 40 }, { today: "2026-01-01", pinned: ["A"] }]) same(text, query, options, JSON.stringify(text));
    }
  }
  const r = memdoc.recall("## A\ud800\n- 2025-01-01: x\udc00y x", "x");
  assert.ok(!JSON.stringify(r).includes("\\ud"), "no lone surrogate in the result");
});

test("bad arguments are the same coded errors", () => {
  for (const args of [[1, "q"], ["## A", 2], ["## A", "q", { budget: -1 }], ["## A", "q", { today: "yesterday" }], ["## A", "q", 5]]) {
    let mine;
    let theirs;
    try {
      memdoc.recall(...args);
    } catch (e) {
      mine = e;
    }
    try {
      throughSerde(...args);
    } catch (e) {
      theirs = e;
    }
    assert.ok(mine && theirs, JSON.stringify(args));
    assert.equal(mine.code, theirs.code, JSON.stringify(args));
  }
});
