// `tsc --noEmit` over types-check.ts, which uses every exported type.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";

import { root } from "./helpers.mjs";

test("tsc --noEmit accepts types-check.ts against the built package", () => {
  const tsc = join(root, "node_modules", ".bin", "tsc");
  try {
    execFileSync(tsc, ["--noEmit", "-p", join(root, "test-js", "tsconfig.json")], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
});
