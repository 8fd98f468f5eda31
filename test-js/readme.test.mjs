// The ```js snippets of the package README and of the project README run
// against the built package, and every `console.log(...); // output` line
// prints exactly its comment.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { minilmDir, pkgDir, root, staticDir } from "./helpers.mjs";

const jsBlocks = (file) =>
  [...readFileSync(file, "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
// With the embedders' packages' READMEs (their snippets load the real files).
const packageSnippets = [pkgDir, minilmDir, staticDir].flatMap((dir) => jsBlocks(join(dir, "README.md")));
const projectSnippets = jsBlocks(join(root, "README.md"));
const snippets = [...packageSnippets, ...projectSnippets];

test("the READMEs have runnable snippets", () => {
  assert.ok(packageSnippets.length >= 3, "the package README");
  assert.ok(projectSnippets.length >= 1, "the project README");
});

snippets.forEach((code, i) => {
  test(`README snippet ${i + 1} runs and prints what it says`, () => {
    const expected = [...code.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    const file = join(root, "test-js", `.readme-${i + 1}.mjs`);
    writeFileSync(file, code);
    try {
      const out = execFileSync("node", [file], { encoding: "utf8" }).trimEnd().split("\n");
      assert.deepEqual(out.slice(0, expected.length), expected);
      assert.ok(out.length >= expected.length && out.join("").length > 0);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
