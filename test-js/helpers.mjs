// Shared by the node:test suites: where things are, and how to check a range.
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const pkgDir = join(root, "pkg");
/** The embedders' packages of weight (@memdoc/minilm, @memdoc/static), built beside pkg/. */
export const minilmDir = join(root, "pkg-minilm");
export const staticDir = join(root, "pkg-static");
export const casesPath = join(root, "tests", "conformance", "cases.json");

/** Assert that `range` is a well-formed UTF-16 range of `text` and return the text it covers. */
export function covered(text, range) {
  const { start, end } = range;
  assert.ok(start.offset <= end.offset && end.offset <= text.length, `range ${JSON.stringify(range)} should lie in the text`);
  for (const pos of [start, end]) {
    const before = text.slice(0, pos.offset);
    const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
    const line = before.split(/\r\n|\r|\n/).length;
    assert.equal(pos.line, line, `line of offset ${pos.offset}`);
    assert.equal(pos.column, pos.offset - lineStart + 1, `column of offset ${pos.offset}`);
  }
  return text.slice(start.offset, end.offset);
}

/** Call `fn` and return what it threw (failing when it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("should have thrown");
}

/** What `promise` rejected with (failing when it resolves). */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("should have rejected");
}

/** A seeded generator of numbers in [0, 1) (mulberry32), for randomized tests that must repeat. */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What the package's Rust read of `text`, a canonical memory each of whose
 * sections has a line: `recall` with a budget that holds all of it hands
 * back the whole memory, in order, as Rust read it (lone surrogates as
 * U+FFFD). Its strings are converted from Rust (bindings/wasm/src/wire/recall/), never
 * sliced from the input, as `compact`'s and `render`'s repeats are.
 * `recall` is the package's export.
 */
export const readByRust = (recall, text) => recall(text, "", { budget: text.length + 1000 }).content;
