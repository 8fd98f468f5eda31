// A text argument is read into Rust by the host's encoder as far as it is
// ASCII, and by wasm-bindgen from its first other character on, after a
// look at its first 64 bytes: a text that is not ASCII there goes to
// wasm-bindgen whole (bindings/wasm/src/wasm/text/encode.rs, `encode`). Every call must see
// exactly the text it was given, wherever its first character beyond ASCII
// is, in a short text and a long one (`readByRust`, in helpers.mjs, shows
// what Rust read).
import assert from "node:assert/strict";
import { test } from "node:test";

import { recall, usage } from "memdoc";
import { readByRust } from "./helpers.mjs";

/** What Rust read of `text`. */
const read = (text) => readByRust(recall, text);

const characters = {
  "two bytes": "é",
  "three bytes": "記",
  "a surrogate pair": "😀",
  "a lone high surrogate": "\ud800",
  "a lone low surrogate": "\udc00",
};

// Around the 64 bytes looked at first, and far past them, in texts of 1,200
// units and of 20,000.
const positions = [3, 4, 62, 63, 64, 65, 66, 127, 128, 1000];
const positionsLong = [3, 63, 64, 65, 10000, 19000];

/** A canonical memory of `units` units whose unit `at` starts `character` (in the heading or an entry). */
function memoryWith(character, at, units = 1200) {
  const start = "## A\n- 2025-01-01: ";
  const filler = (n) => Array.from({ length: n }, (_, i) => "abcdefgh"[i % 8]).join("");
  if (at < start.length) return `## ${filler(at - 3)}${character} title\n- 2025-01-01: ${filler(units)}`;
  return `${start}${filler(at - start.length)}${character}${filler(units - at)}`;
}

test("a text is read exactly wherever its first character beyond ASCII is", () => {
  for (const [what, character] of Object.entries(characters)) {
    for (const [at, units] of [...positions.map((p) => [p, 1200]), ...positionsLong.map((p) => [p, 20_000])]) {
      const text = memoryWith(character, at, units);
      assert.equal(text.indexOf(character), at, `${what} at ${at}: the text puts it there`);
      assert.equal(read(text), text.toWellFormed(), `${what} at ${at} of ${text.length}`);
    }
  }
});

test("ASCII texts of every length around the 64 bytes looked at first are read exactly", () => {
  for (let length = 6; length <= 200; length += 1) {
    const memory = `## A\n${"x".repeat(length - 5)}`;
    assert.equal(read(memory), memory, `a memory of ${length} units`);
    assert.equal(usage(memory).chars, length, `a memory of ${length} units`);
  }
});
