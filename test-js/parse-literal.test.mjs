// `parse` builds its result in JavaScript from numbers and slices of the
// input string (bindings/wasm/src/wire/document/), and falls back to the boundary's
// serializer (bindings/wasm/src/wire/packed/) where a slice would be wrong. Here the
// package's `parse` (pkg/) is compared with serde-wasm-bindgen's conversion
// of the same view over many documents: the
// test-panic build (scripts/test.mjs makes it in target/pkg-test-panic) has
// an export, `__parseThroughSerde`, that converts through serde only; the
// package users get has no such export.
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
const { __parseThroughSerde: throughSerde } = await import(pathToFileURL(join(testBuild, "memdoc.js")));

/** Assert that `parse(text)` is what the serde conversion gives. */
function same(text, what) {
  assert.deepStrictEqual(memdoc.parse(text), throughSerde(text), `${what}: ${JSON.stringify(text.slice(0, 200))}`);
}

const ascii = (text) => [...text].map((c) => (c.charCodeAt(0) < 128 ? c : "x")).join("");
const breaks = (text, by) => text.replace(/\r\n|\r|\n/g, by);

test("generated documents, in ASCII too, with LF, CRLF and CR line breaks", () => {
  for (const n of [0, 1, 200, 1_000, 5_000, 25_000]) {
    for (const text of [genDoc(n), ascii(genDoc(n))]) {
      for (const by of ["\n", "\r\n", "\r"]) same(breaks(text, by), `genDoc(${n})`);
    }
  }
});

test("the hostile shapes of the growth benchmark", () => {
  for (const [name, shape] of Object.entries(shapes)) {
    for (const n of [1, 10, 500]) same(shape(n), `${name}(${n})`);
  }
});

test("edge cases: empty, preamble, implicit section, legacy entries, fences, non-ASCII", () => {
  const cases = [
    "",
    "\n",
    "\r\n\r\n",
    "   ",
    "intro\n\nmore intro  \n## A\n- 2025-01-01: x",
    "- 2025-01-01: before any heading\n- (2025-01-02) [fact] legacy\n## A",
    "## Legacy\n- (2025-01-02) [fact] a\n- (2025-01-03) [pref] b\n- (2025-01-04) [instr] c\n- (2025-01-05) [other] d\n- (2025-13-01) [fact] e",
    "## Code\n```\n## not a heading\n- 2025-01-01: not an entry\n```\n- 2025-01-01: entry\n```rust\nunclosed",
    "## É café 記憶 😀\n- 2025-01-01: 😀😀 記憶 é\n\t- 2025-01-01: indented\n  raw 😀  \n## 😀\n",
    "##   spaced title   \n-   2025-01-01:   spaced text   \n## \n##\n# one hash\n### three\n## A ##",
    "## A\n- 2025-01-01:\n- 2025-01-01: \n- 2025-1-1: bad date\n- 2025-02-30: impossible\n-2025-01-01: no space",
    "## Trailing\n- 2025-01-01: x\n\n\n",
    "## Trailing CR\r- 2025-01-01: x\r\r",
    "\u{feff}## BOM\n- 2025-01-01: x",
    "## A\n- 2025-01-01: \u{fffd} written as such\n",
  ];
  for (const text of cases) same(text, "case");
});

test("lone surrogates, which the result carries as U+FFFD", () => {
  for (const text of ["\ud800", "## A\ud800\n- 2025-01-01: x", "## A\n- 2025-01-01: x\udc00y", "lone \udfff preamble\n## B", "## 😀\ud83d\n- 2025-01-01: \ude00"]) {
    same(text, "lone surrogate");
    assert.ok(!JSON.stringify(memdoc.parse(text)).includes("\\ud"), "no lone surrogate in the result");
  }
});

test("documents assembled from a pool of lines, with every kind of break", () => {
  const pool = [
    "## Notes", "## 😀 Émoji", "##", "## A ##", "- 2025-01-01: entry", "- 2025-02-03: café 記憶 😀", "- (2025-01-02) [fact] legacy",
    "- (2025-01-02) [pref] legacy", "- (2025-01-02) [instr] x", "- (2025-01-02) [nope] x", "```", "```js", "~~~", "plain text  ",
    "\tindented", "", "   ", "- not an entry", "* 2025-01-01: star", "\ud800 lone", "😀", "- 2025-01-01:    ", "# H1",
  ];
  // A small deterministic generator (a linear congruential one).
  let seed = 7;
  const next = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let doc = 0; doc < 400; doc++) {
    let text = "";
    const lines = next(30);
    for (let k = 0; k < lines; k++) text += pool[next(pool.length)] + ["\n", "\r\n", "\r", "  \n"][next(4)];
    if (next(2)) text = text.slice(0, -1);
    same(text, `pool document ${doc}`);
  }
});
