// The package's command for a newcomer (docs/CLI.md, "Install"): `npx
// memdoc` in this repository once the package is built, and the package's
// tarball (`npm pack ./pkg`) installed with `npm install -g` into a folder
// of its own, its `memdoc` run from there as from the PATH.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { pkgDir, root } from "./helpers.mjs";

const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));

test("npx memdoc in the repository runs the package's bin", () => {
  const done = spawnSync("npx", ["--no-install", "memdoc", "--version"], { cwd: root, encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  assert.equal(done.stdout, `memdoc ${version}\n`);
});

test("the package's tarball installs a working memdoc command", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-install-"));
  try {
    const packed = JSON.parse(execFileSync("npm", ["pack", pkgDir, "--json", "--pack-destination", dir], { cwd: dir, encoding: "utf8" }));
    const tarball = join(dir, packed[0].filename);
    const prefix = join(dir, "prefix");
    execFileSync("npm", ["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball], { cwd: dir, encoding: "utf8" });
    const memdoc = join(prefix, "bin", "memdoc");
    assert.equal(execFileSync(memdoc, ["--version"], { encoding: "utf8" }), `memdoc ${version}\n`);
    writeFileSync(join(dir, "MEMORY.md"), "## Decisions\n- 2025-03-01: Use Postgres\n");
    const checked = spawnSync(memdoc, ["check", "--scope", "team", "MEMORY.md"], { cwd: dir, encoding: "utf8" });
    assert.deepEqual([checked.status, checked.stderr], [0, ""]);
    writeFileSync(join(dir, "PERSONAL.md"), "## Preferences\n- 2025-01-01: dark mode\n");
    const personal = spawnSync(memdoc, ["check", "--scope", "team", "PERSONAL.md"], { cwd: dir, encoding: "utf8" });
    assert.equal(personal.status, 1);
    assert.match(personal.stdout + personal.stderr, /scope\/personal-heading/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
