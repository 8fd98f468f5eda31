// The size of the WebAssembly module the package ships: gzip -9 of
// pkg/memdoc_bg.wasm (as scripts/build.mjs prints it) within the budget.
// A change that makes the module larger than BUDGET fails here; change the
// budget only on purpose, with the reason in BENCHMARKS.md ("Module size").
// The target is 100 KB; the budget is the module as built at its last
// deliberate change plus a little room (opt-level 2, for speed: see
// Cargo.toml). Each change of the budget, with the bytes it bought and
// what for, is in BENCHMARKS.md ("Module size" in its lab history).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

import { pkgDir } from "./helpers.mjs";

/** The most bytes the module may take gzip -9. */
export const BUDGET = 184_452;

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
