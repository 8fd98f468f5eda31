// The hub's cache of what it makes from a memory's text (hub/src/text-cache.js):
// an entry answers only for its own text, another text under its key
// replaces it, the bytes stay under the bound with the least recently used
// let go first, and every value let go is dropped once.
import assert from "node:assert/strict";
import { test } from "node:test";

import { TextCache } from "../src/text-cache.js";

test("a kept value answers for its very text only, within the cache's bytes, the least recently used dropped first", () => {
  const dropped = [];
  const cache = new TextCache(100, (value) => dropped.push(value));
  for (const name of ["a", "b", "c", "d"]) assert.equal(cache.set(name, `text ${name}`, name.toUpperCase(), 25), true);
  assert.equal(cache.get("a", "text a"), "A");
  assert.equal(cache.get("a", "text a, edited"), undefined, "another text is not answered for");
  // Past 100 bytes: b, the least recently used, goes.
  assert.equal(cache.set("e", "text e", "E", 25), true);
  assert.deepEqual(dropped, ["B"]);
  assert.equal(cache.get("b", "text b"), undefined);
  // Another text under a key replaces what was kept.
  cache.set("a", "text a, edited", "A2", 10);
  assert.deepEqual(dropped, ["B", "A"]);
  assert.equal(cache.get("a", "text a, edited"), "A2");
  // More than a quarter of the cache is not kept, and the key's earlier value is let go.
  assert.equal(cache.set("c", "text c, long", "C2", 26), false);
  assert.deepEqual(dropped, ["B", "A", "C"]);
  assert.equal(cache.get("c", "text c, long"), undefined);
  cache.delete("a");
  cache.delete("a");
  assert.deepEqual(dropped, ["B", "A", "C", "A2"], "each value dropped once");
});

test("a kept value that grows is counted again: others are let go for it, and past a quarter of the cache it is not counted", () => {
  const dropped = [];
  const cache = new TextCache(100, (value) => dropped.push(value));
  for (const name of ["a", "b", "c", "d"]) cache.set(name, `text ${name}`, name.toUpperCase(), 20);
  assert.equal(cache.peek("a"), "A", "peek answers whatever the text");
  assert.equal(cache.peek("z"), undefined);
  // a is the least recently used still (peek does not use it): b grows past the bound, and a goes.
  assert.equal(cache.resize("b", 25), true);
  assert.deepEqual(dropped, []);
  assert.equal(cache.resize("c", 25), true);
  assert.equal(cache.set("e", "text e", "E", 15), true);
  assert.deepEqual(dropped, ["A"], "90 + 15 bytes: the least recently used goes");
  assert.equal(cache.resize("d", 26), false, "more than a quarter");
  assert.equal(cache.get("d", "text d"), "D", "still kept, counted as before");
  assert.equal(cache.resize("gone", 1), false);
  // Shrinking makes room: nothing else goes.
  assert.equal(cache.resize("b", 5), true);
  assert.equal(cache.set("f", "text f", "F", 20), true);
  assert.deepEqual(dropped, ["A"]);
});
