// A result that repeats its input is handed back as slices of the input
// string joined with the converted rest (bindings/wasm/src/wasm/text/slices.rs, `repeated`); a
// text that holds a U+FFFD is converted whole instead (the character may
// stand for a lone surrogate of the input). So a U+FFFD in a preamble line,
// which the canonical form drops, gives the same result converted whole by
// Rust: the reference the sliced results must equal, character for
// character, for memories whose canonical form rewrites lines here and
// there (legacy entries, CRLF, trailing white space, a missing blank line).
import assert from "node:assert/strict";
import { test } from "node:test";

import { planSave, render, validate } from "memdoc";

import { genDoc } from "../bench/gen_doc.mjs";
import { seeded } from "./helpers.mjs";

/** A seeded generator of whole numbers below `n`. */
function generator(seed) {
  const random = seeded(seed);
  return (n) => Math.floor(random() * n);
}

/** A memory of `sections` sections whose lines are rewritten by the canonical form here and there. */
function memory(next, sections) {
  const words = ["café", "日本語", "😀", "plain", "naïve", "𝔘nicode", "tea", "x".repeat(70)];
  const word = () => words[next(words.length)];
  const out = [];
  for (let s = 0; s < sections; s += 1) {
    const lines = [`## Section ${s} ${word()}`];
    for (let e = 0; e < 2 + next(8); e += 1) {
      const text = Array.from({ length: 1 + next(6) }, word).join(" ");
      const day = String(1 + next(28)).padStart(2, "0");
      switch (next(6)) {
        case 0:
          lines.push(`- (2025-01-${day}) [fact] ${text}`);
          break;
        case 1:
          lines.push(`- 2025-01-${day}: ${text}   `);
          break;
        case 2:
          lines.push(`- 2025-01-${day}: ${text}\r`);
          break;
        default:
          lines.push(`- 2025-01-${day}: ${text}`);
      }
    }
    out.push(lines.join("\n"));
  }
  return out.join(next(4) === 0 ? "\n" : "\n\n");
}

/** The checks of `text`: each result sliced, and converted whole. */
function check(text, previous, what) {
  const whole = `\ufffd\n${text}`;
  assert.equal(render(text), render(whole), `${what}: render`);
  assert.equal(validate(text, { previous }).canonical, validate(whole, { previous }).canonical, `${what}: validate`);
  const options = { previous, limits: { soft: 4 * text.length + 1000, hard: 4 * text.length + 1000 } };
  assert.equal(planSave(text, options).content, planSave(whole, options).content, `${what}: planSave`);
}

test("results made of slices of the input equal the results converted whole", () => {
  const next = generator(20261204);
  for (let k = 0; k < 40; k += 1) {
    const text = memory(next, 1 + next(30));
    const previous = k % 2 === 0 ? text : `${text}\n- 2025-02-01: kept before`;
    check(text, previous, `memory ${k}`);
  }
  for (const n of [1_000, 25_000, 400_000]) {
    const text = genDoc(n);
    check(text, `${text}\n- 2025-02-01: kept before`, `generated ${n}`);
  }
});
