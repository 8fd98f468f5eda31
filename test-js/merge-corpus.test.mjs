// The merge corpus through the package: every scenario of
// tests/merge-corpus/ merged by the WebAssembly module, with the result the
// corpus expects (the same files tests/merge_corpus.rs merges natively).
import assert from "node:assert/strict";
import { test } from "node:test";

import { merge } from "../pkg/node.js";
import { scenarios, written } from "./merge-corpus.mjs";

const all = scenarios();

test("the corpus has at least 30 scenarios", () => {
  assert.ok(all.length >= 30, `${all.length} scenarios`);
});

for (const s of all) {
  test(s.name, () => {
    const m = merge(s.base, s.ours, s.theirs);
    assert.equal(m.clean, s.clean, JSON.stringify(m.conflicts));
    assert.deepEqual(written(m.conflicts), s.conflicts);
    assert.equal(m.content, s.content);
  });
}
