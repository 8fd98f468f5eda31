// `memdoc merge` as git's merge driver, in a real repository: two branches
// each add entries to the same section of MEMORY.md (one also renames
// another section), merged by git with the driver set up as docs/CLI.md
// says (`.gitattributes` and `git config merge.memdoc.driver`). Plain git
// conflicts there; the driver's result is the engine's `merge`. Then a real
// conflict: the driver's markers, and git stops. For both front ends.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { merge } from "../pkg/node.js";
import { commandLine, frontEnds, gitRepository } from "./cli-helpers.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-git-"));
after(() => rmSync(work, { recursive: true, force: true }));

const BASE = [
  "## Decisions",
  "- 2025-03-01: Use Postgres",
  "- 2025-03-02: Deploy on Tuesdays",
  "",
  "## Notes",
  "- 2025-03-03: The office is in Oslo",
  "",
].join("\n");
// Each adds two entries at the end of Decisions; theirs also renames Notes.
const OURS = BASE.replace("Deploy on Tuesdays\n", "Deploy on Tuesdays\n- 2025-03-10: Ship on Fridays\n- 2025-03-11: Use Rust for the engine\n");
const THEIRS = BASE.replace("Deploy on Tuesdays\n", "Deploy on Tuesdays\n- 2025-03-12: Freeze in December\n- 2025-03-13: Review every pull request\n").replace(
  "## Notes",
  "## Office Notes",
);

/** A repository with MEMORY.md at BASE and branches `ours` and `theirs`; `driver`: the merge driver's command, or none. */
function repository(driver) {
  const { repo, git, ok } = gitRepository(work, driver);
  const commit = (text, message) => {
    writeFileSync(join(repo, "MEMORY.md"), text);
    ok("add", "-A");
    ok("commit", "-qm", message);
  };
  commit(BASE, "base");
  ok("checkout", "-q", "-b", "theirs");
  commit(THEIRS, "theirs");
  ok("checkout", "-q", "main");
  commit(OURS, "ours");
  return { repo, git, commit, read: () => readFileSync(join(repo, "MEMORY.md"), "utf8") };
}

describe("memdoc merge as git's merge driver", () => {
  test("plain git conflicts on entries both branches added", () => {
    const { git, read } = repository(null);
    const merged = git("merge", "-q", "--no-edit", "theirs");
    assert.notEqual(merged.status, 0, "git's line merge should conflict");
    assert.match(read(), /^<<<<<<< /m);
  });

  for (const [name, prefix] of frontEnds()) {
    test(`${name}: both branches' entries, the renamed section, as the engine merges them`, () => {
      const { git, read } = repository(commandLine(prefix));
      const merged = git("merge", "-q", "--no-edit", "theirs");
      assert.equal(merged.status, 0, merged.stdout + merged.stderr);
      const expected = merge(BASE, OURS, THEIRS);
      assert.ok(expected.clean);
      assert.equal(read(), `${expected.content}\n`);
      for (const entry of ["Ship on Fridays", "Use Rust for the engine", "Freeze in December", "Review every pull request"]) {
        assert.equal(read().split(entry).length, 2, `${entry} once`);
      }
      assert.match(read(), /^## Office Notes\n- 2025-03-03: The office is in Oslo\n$/m);
      assert.doesNotMatch(read(), /^## Notes$/m);
      assert.equal(git("log", "-1", "--format=%P").stdout.trim().split(" ").length, 2, "a merge commit");
    });

    test(`${name}: a real conflict gets the engine's markers and stops git`, () => {
      const { git, commit, read } = repository(commandLine(prefix));
      git("merge", "-q", "--no-edit", "theirs");
      // Both branches now rewrite the same note differently.
      commit(read().replace("The office is in Oslo", "The office is in Bergen").replace("- 2025-03-03: ", "The office: "), "ours again");
      git("checkout", "-q", "theirs");
      commit(THEIRS.replace("- 2025-03-03: The office is in Oslo", "The office moved to Lisbon"), "theirs again");
      git("checkout", "-q", "main");
      const merged = git("merge", "-q", "--no-edit", "theirs");
      assert.notEqual(merged.status, 0, "git should stop on the conflict");
      assert.match(read(), /\n<<<<<<< ours\nThe office: The office is in Bergen\n\|\|\|\|\|\|\| base\n- 2025-03-03: The office is in Oslo\n=======\nThe office moved to Lisbon\n>>>>>>> theirs\n/);
      assert.match(git("status", "--porcelain").stdout, /^UU MEMORY\.md$/m);
    });
  }
});
