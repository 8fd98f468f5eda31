// The size of the WebAssembly module the package ships: gzip -9 of
// pkg/memdoc_bg.wasm (as scripts/build.mjs prints it) within the budget.
// A change that makes the module larger than BUDGET fails here; change the
// budget only on purpose, with the reason in BENCHMARKS.md ("Module size").
// The target is 100 KB; the module was 165,165 bytes when the budget was
// set (opt-level 2, for speed: see Cargo.toml), and the budget was that plus
// 3% (170,000) until the store's records got their own JSON codec: 4,626
// bytes for saves 2.5 to 3 times and loads 3 to 4 times as fast
// (BENCHMARKS.md, "The store's records in the module"), then 175,000 until
// the store's records were read without serde and compaction's keys
// checked without a substring search (169,367 bytes), then 170,000, and
// 162,000 since Talc became the allocator and options were read by name
// (159,751 bytes), and 161,000 since wasm-opt's `--low-memory-unused`
// (159,774 bytes, with the store's kept conversions), and 160,000 since
// the module uses WebAssembly's SIMD (158,931 bytes), so that what those
// took off stays off; 161,000 since the headings of a stored memory are
// kept with it call after call (160,808 bytes: 870 for `validate` and
// `planSave` with a stored memory 1.13 to 1.7 times as fast from 25,000
// characters up, BENCHMARKS.md); 162,000 since a store keeps the head it
// last wrote or read (161,055 bytes: 422 for a store's `save` 1.15 to 1.36
// times and `load` 2.1 to 3 times as fast, BENCHMARKS.md); 160,000 since
// the store's host calls are awaited by JavaScript (158,628 bytes);
// 155,000 since recall's word segmentation is the crate's own, with a
// table of runs of characters (154,113 bytes); 152,000 since recall's
// `ln` and `0.5^x` are the crate's own (151,211 bytes); 155,000 since a
// `merge` save that conflicts returns its conflicts and the merged text
// with markers, and merges again when it loses a race (154,360 bytes: 3,134
// for the one merge of the store that its clients no longer repeat);
// 158,000 since recall also fuses a semantic channel (vectors in, cosine,
// calibration, the explained parts, `recallItems` and `recallWithVectors`:
// 2,781 bytes alone; 157,227 bytes with the store's merge outcome;
// 157,694 with each recalled item's range in the text).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

import { pkgDir } from "./helpers.mjs";

/** The most bytes the module may take gzip -9. */
export const BUDGET = 158_000;

/** Bytes of `wasm` compressed with gzip -9. */
export function gzipBytes(wasm) {
  return gzipSync(wasm, { level: 9 }).length;
}

test(`memdoc_bg.wasm is at most ${BUDGET} bytes gzip -9`, () => {
  const wasm = readFileSync(join(pkgDir, "memdoc_bg.wasm"));
  const gzip = gzipBytes(wasm);
  assert.ok(
    gzip <= BUDGET,
    `memdoc_bg.wasm is ${gzip} bytes gzip -9 (${wasm.length} raw), over the budget of ${BUDGET} by ${gzip - BUDGET}`,
  );
});
