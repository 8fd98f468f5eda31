// The merge corpus through git: every scenario of tests/merge-corpus/ as
// two branches of a real repository, merged by plain git and by git with
// `memdoc merge %O %A %B %P` as the merge driver (docs/CLI.md), for both
// front ends. The driver stops git exactly where the corpus expects
// conflicts (never exit 0 on one), writes the corpus's result where it
// expects none, and names the memory's path (not git's temporary file) in
// its messages. Plain git's outcome is the one the scenario records
// (`@@ git`), and where plain git merges cleanly but the corpus expects a
// conflict, the scenario says why.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { commandLine, frontEnds, gitRepository } from "./cli-helpers.mjs";
import { scenarios } from "./merge-corpus.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-driver-"));
after(() => rmSync(work, { recursive: true, force: true }));

const FILE = "memory/MEMORY.md";

/** `s`'s branches in a new repository (with the driver `driver`, or plain git), merged: git's status, stderr and the file. */
function merged(s, driver) {
  const { repo, git, ok } = gitRepository(work, driver);
  mkdirSync(join(repo, "memory"));
  const commit = (text, message) => {
    writeFileSync(join(repo, FILE), text);
    ok("add", "-A");
    ok("commit", "-q", "--allow-empty", "-m", message);
  };
  commit(s.base, "base");
  ok("checkout", "-q", "-b", "theirs");
  commit(s.theirs, "theirs");
  ok("checkout", "-q", "main");
  commit(s.ours, "ours");
  const done = git("merge", "-q", "--no-edit", "theirs");
  return { status: done.status, stderr: done.stderr, text: readFileSync(join(repo, FILE), "utf8"), porcelain: git("status", "--porcelain").stdout };
}

const all = scenarios();
const drivers = frontEnds();

for (const s of all) {
  describe(s.name, () => {
    test("plain git does what the scenario records", () => {
      const plain = merged(s, null);
      assert.equal(plain.status === 0 ? "clean" : "conflict", s.git, plain.stderr);
      if (plain.status === 0 && !s.clean) assert.ok(s.why, "plain git merges cleanly where the corpus expects a conflict: the scenario must say why");
    });
    for (const [name, prefix] of drivers) {
      test(`the driver (${name}) stops exactly on the corpus's conflicts`, () => {
        const done = merged(s, commandLine(prefix));
        if (s.clean) {
          assert.equal(done.status, 0, done.stderr);
          assert.equal(done.text, `${s.content}\n`);
        } else {
          assert.notEqual(done.status, 0, "the driver must not exit 0 on a conflict");
          assert.match(done.porcelain, /^UU memory\/MEMORY\.md$/m);
          assert.match(done.text, /^<<<<<<< ours$/m);
          assert.match(done.stderr, /^memdoc: memory\/MEMORY\.md: \d+ conflicts? /m);
          assert.doesNotMatch(done.stderr, /\.merge_file_/);
        }
      });
    }
  });
}
