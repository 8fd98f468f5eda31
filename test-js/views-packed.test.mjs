// Every result but `parse`'s and `recall`'s crosses the boundary as numbers
// and one string (bindings/wasm/src/wire/packed/mod.rs) that bindings/wasm/src/wire/packed/packed.js makes the value
// of. Here those values are compared with what serde-wasm-bindgen's
// JSON-compatible serializer makes of the same views, over many documents:
// the test-panic build (target/pkg-test-panic) has an export,
// `__viewsBothWays`, that returns both for the document, a report, a save
// plan, a merge, a compaction, a recall, an expiry and a usage.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { genDoc } from "../bench/gen_doc.mjs";
import { shapes } from "../bench/growth.mjs";
import { root } from "./helpers.mjs";

const testBuild = join(root, "target", "pkg-test-panic");
assert.ok(existsSync(join(testBuild, "node.js")), `${testBuild} is missing: run node scripts/build.mjs --test-panic --out ${testBuild}`);
// The glue's internals stay out of the package's entries: the export is the
// glue's own, of the instance node.js loaded.
const { merge, compact, validate, planSave } = await import(pathToFileURL(join(testBuild, "node.js")));
const { __viewsBothWays: bothWays } = await import(pathToFileURL(join(testBuild, "memdoc.js")));

/**
 * Assert that each view is the same both ways, with the same key order, and
 * that the exports return it too (a report's `canonical`, a save plan's and
 * a merge's `content` cross as slices of an input, bindings/wasm/src/wasm/text/slices.rs).
 */
function same(base, ours, theirs, what) {
  const pairs = bothWays(base, ours, theirs);
  assert.equal(pairs.length, 8);
  for (const [packed, serde] of pairs) {
    assert.deepStrictEqual(packed, serde, what);
    assert.equal(JSON.stringify(packed), JSON.stringify(serde), what);
  }
  const exported = [
    [1, validate(ours, { scope: "team", previous: base })],
    [2, planSave(ours, { scope: "team", previous: base })],
    [3, merge(base, ours, theirs)],
  ];
  // The package refuses a target of 0, which the crate takes.
  const target = Math.floor([...ours].length / 3);
  if (target > 0) exported.push([4, compact(ours, { target })]);
  for (const [k, result] of exported) assert.equal(JSON.stringify(result), JSON.stringify(pairs[k][1]), `${what}: export ${k}`);
}

test("generated documents: the views of a save, a merge with conflicts, a compaction", () => {
  for (const n of [0, 1_000, 25_000]) {
    const base = genDoc(n);
    const lines = base.split("\n");
    const ours = [...lines.slice(0, lines.length - 3), "- 2025-02-01: ours postgres", "## Personal", "- 2025-02-02: likes tea"].join("\n");
    const theirs = lines.map((l, i) => (i % 7 === 3 ? `${l} (theirs)` : l)).join("\n");
    same(base, ours, theirs, `genDoc(${n})`);
  }
  // The cases above include conflicts and removed entries.
  const base = genDoc(25_000);
  const lines = base.split("\n");
  const r = merge(base, lines.map((l, i) => (i % 7 === 3 ? `${l} ours` : l)).join("\n"), lines.map((l, i) => (i % 7 === 3 ? `${l} theirs` : l)).join("\n"));
  assert.ok(r.conflicts.length > 0);
  assert.ok(compact(base, { target: 5_000 }).removed.length > 0);
});

test("hostile shapes, non-ASCII, lone surrogates, names that are Object.prototype's", () => {
  for (const shape of Object.values(shapes)) {
    for (const n of [1, 40]) same(shape(n), `${shape(n)}\n- 2025-03-01: more`, shape(n + 3), `shape ${n}`);
  }
  const odd = "## __proto__\n- 2025-01-01: constructor\n## toString\n- 2025-01-02: \ud800 lone\n## É 😀\n- 2025-01-03: 記憶";
  same(odd, `${odd}\n## Work\n- 2025-01-05: x`, odd.replace("記憶", "changed"), "odd");
  same("", "", "", "empty");
  same("\r\n", "## A\r\n- 2025-01-01: crlf\r\n", "## A\r- 2025-01-01: cr", "breaks");
});
