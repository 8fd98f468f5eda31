// The `memdoc` command's two front ends, the Rust binary and the npm bin,
// run on the same files with the same arguments: standard output, standard
// error, exit code and the files afterwards must be the same bytes, and
// each case also checks what that output is (docs/CLI.md).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { merge, render, validate } from "../pkg/node.js";
import { commandLine, frontEnds, run } from "./cli-helpers.mjs";
import { root } from "./helpers.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-cli-"));
after(() => rmSync(work, { recursive: true, force: true }));

const fixtures = {
  "clean.md": "## Decisions\n- 2025-03-15: Ship on Fridays\n",
  "personal.md": "## Preferences\n- 2025-01-01: dark mode\n",
  "impossible.md": "## Decisions\n- 2025-02-30: Deploys are frozen on Fridays\n",
  "warn.md": "Sure, here it is:\n## Decisions\n-  2025-03-15 Ship\n- 2025-03-16: Use Postgres\n",
  // A UTF-16 column past an emoji and CJK, and a tab before the caret.
  "wide.md": "## 記憶 😀\n\t- not an entry 😀\n## Preferences\n- 2025-01-01: x\n",
  "crlf.md": "## Facts   \r\n  - (2024-11-02) [fact] legacy\r\n\r\n\r\n",
  "canonical.md": "## Facts\n- 2024-11-02: legacy\n",
  "terminal.md": "## Notes\n- \u001b[31mred\u001b[0m\n",
  "latin1.md": Buffer.from([0x23, 0x23, 0x20, 0xe9, 0x0a]),
  "old.md": "## Decisions\n- 2025-03-15: Ship on Fridays\n- 2025-03-16: Use Postgres\n- 2025-03-17: Use Rust\n- 2025-03-18: Use Deno\n\n## Facts\n- 2025-03-01: Office in Oslo\n",
  "base.md": "## Decisions\n- 2025-03-01: Use Postgres\n\n## Notes\nold note\n",
  "scoped.md": "## Decisions\n- 2025-03-01: Use Postgres for services\n\n## Notes\n- 2025-03-01: Use Slack for chat\n",
  "ours.md": "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Ship on Fridays\n\n## Notes\nour note\n",
  "theirs.md": "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-03: Freeze in December\n\n## Notes\ntheir note\n",
  "theirs-clean.md": "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-03: Freeze in December\n\n## Notes\nold note\n",
  "big.md": [
    "## Current Priorities",
    ...Array.from({ length: 12 }, (_, k) => `- 2025-0${1 + (k % 9)}-1${k % 10}: Priority number ${k} about the release train`),
    "",
    "## Decisions",
    ...Array.from({ length: 12 }, (_, k) => `- 2025-04-1${k % 10}: Decision ${k} on the database and the deploys`),
  ].join("\n"),
};

/** A fresh folder with the fixtures, one per front end and case. */
function folder() {
  const dir = mkdtempSync(join(work, "case-"));
  for (const [name, text] of Object.entries(fixtures)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Every file of `dir`, by name. */
function files(dir) {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), "latin1")]));
}

/** Run `args` with both front ends in fresh folders; assert the same output and files; the Rust one's result. */
function both(args, o = {}) {
  const results = frontEnds().map(([name, prefix]) => {
    const cwd = folder();
    return { name, ...run(prefix, args, { cwd, input: o.input, env: o.env }), files: files(cwd) };
  });
  const [rust, npm] = results;
  assert.equal(npm.stdout, rust.stdout, `stdout of memdoc ${args.join(" ")}`);
  assert.equal(npm.stderr, rust.stderr, `stderr of memdoc ${args.join(" ")}`);
  assert.equal(npm.status, rust.status, `exit code of memdoc ${args.join(" ")}`);
  assert.deepEqual(npm.files, rust.files, `files after memdoc ${args.join(" ")}`);
  return rust;
}

describe("memdoc check", () => {
  test("a clean file prints nothing and exits 0", () => {
    const r = both(["check", "--scope", "team", "clean.md"]);
    assert.deepEqual([r.stdout, r.stderr, r.status], ["", "", 0]);
  });

  test("an error: file:line:col, the line and a caret; exit 1", () => {
    const r = both(["check", "--scope", "team", "personal.md"]);
    assert.equal(r.status, 1);
    const lines = r.stdout.split("\n");
    assert.match(lines[0], /^personal\.md:1:1: error scope\/personal-heading: /);
    assert.equal(lines[1], " 1 | ## Preferences");
    assert.equal(lines[2], "   | ^^^^^^^^^^^^^^");
    assert.match(lines[3], /^ {3}= help: /);
    // user scope: the same file is clean.
    assert.equal(both(["check", "personal.md"]).status, 0);
  });

  test("a date the calendar does not have is named, with the caret on the date", () => {
    const r = both(["check", "--scope", "team", "impossible.md"]);
    assert.equal(r.status, 0);
    const lines = r.stdout.split("\n");
    assert.equal(
      lines[0],
      "impossible.md:2:3: warning entry/impossible-date: 2025-02-30 is not a date of the calendar, so the line is not an entry.",
    );
    assert.equal(lines[1], " 2 | - 2025-02-30: Deploys are frozen on Fridays");
    assert.equal(lines[2], "   |   ^^^^^^^^^^");
  });

  test("warnings pass unless --deny-warnings", () => {
    const r = both(["check", "warn.md"]);
    assert.equal(r.status, 0);
    const codes = [...r.stdout.matchAll(/^warn\.md:\d+:\d+: warning (\S+):/gm)].map((m) => m[1]);
    assert.deepEqual(codes, ["structure/preamble-dropped", "entry/nonstandard"]);
    assert.equal(both(["check", "--deny-warnings", "warn.md"]).status, 1);
  });

  test("columns are UTF-16 units, the caret under the range (a tab kept)", () => {
    const r = both(["check", "--scope", "team", "wide.md"]);
    const text = fixtures["wide.md"];
    const report = validate(text, { scope: "team" });
    for (const d of report.diagnostics) {
      assert.ok(r.stdout.includes(`wide.md:${d.range.start.line}:${d.range.start.column}: ${d.severity} ${d.code}: ${d.message}\n`), d.code);
    }
    assert.ok(r.stdout.includes(" 2 | \t- not an entry 😀\n   | \t^^^^^^^^^^^^^^^^\n"), r.stdout);
  });

  test("control characters of a memory are not sent to the terminal", () => {
    const r = both(["check", "--format", "human", "terminal.md"]);
    assert.ok(!r.stdout.includes("\u001b"), JSON.stringify(r.stdout));
    assert.ok(r.stdout.includes("\ufffd[31mred"), r.stdout);
  });

  test("json: one object per file and line, the API's diagnostics", () => {
    const r = both(["check", "--format", "json", "--scope", "team", "clean.md", "personal.md", "warn.md"]);
    assert.equal(r.status, 1);
    const objects = r.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(objects.map((o) => o.file), ["clean.md", "personal.md", "warn.md"]);
    for (const o of objects) {
      const report = validate(fixtures[o.file], { scope: "team" });
      assert.equal(o.ok, report.ok);
      assert.deepEqual(o.usage, report.usage);
      assert.deepEqual(o.diagnostics, report.diagnostics);
    }
  });

  test("github: workflow commands with the position and the code", () => {
    const r = both(["check", "--format", "github", "--scope", "team", "personal.md", "warn.md"]);
    const lines = r.stdout.trimEnd().split("\n");
    assert.match(lines[0], /^::error file=personal\.md,line=1,col=1,endLine=1,endColumn=15,title=scope\/personal-heading::.+%0Ahelp: /);
    assert.match(lines[1], /^::warning file=warn\.md,line=1,col=1,endLine=1,endColumn=18,title=structure\/preamble-dropped::/);
    assert.equal(r.status, 1);
  });

  test("--previous: the diff rules against a stored version", () => {
    const r = both(["check", "--previous", "old.md", "clean.md"]);
    assert.match(r.stdout, /clean\.md: warning diff\/section-removed: /);
    assert.match(r.stdout, /clean\.md: warning diff\/shrink: /);
    assert.equal(r.status, 0);
  });

  test("--previous-rev: the file as committed", () => {
    const repo = mkdtempSync(join(work, "repo-"));
    const git = (...args) => {
      const done = spawnSync("git", args, { cwd: repo, encoding: "utf8" });
      assert.equal(done.status, 0, done.stderr);
    };
    git("init", "-q");
    writeFileSync(join(repo, "MEMORY.md"), fixtures["old.md"]);
    git("add", "MEMORY.md");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "memory");
    writeFileSync(join(repo, "MEMORY.md"), fixtures["clean.md"]);
    writeFileSync(join(repo, "NEW.md"), fixtures["clean.md"]);
    const outputs = frontEnds().map(([, prefix]) => [
      run(prefix, ["check", "--previous-rev", "HEAD", "MEMORY.md", "NEW.md"], { cwd: repo }),
      run(prefix, ["check", "--previous-rev", "HEAD", join(repo, "MEMORY.md")], { cwd: work }),
      run(prefix, ["check", "--previous-rev", "no-such-rev", "MEMORY.md"], { cwd: repo }),
    ]);
    assert.deepEqual(outputs[1], outputs[0]);
    const [relative, absolute, unknown] = outputs[0];
    assert.match(relative.stdout, /^MEMORY\.md: warning diff\/section-removed: /m);
    assert.ok(!relative.stdout.includes("NEW.md"), "a new file has no diff rules");
    assert.match(absolute.stdout, /MEMORY\.md: warning diff\/shrink: /);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^memdoc: MEMORY\.md: cannot read it as of "no-such-rev": fatal: /);
  });

  test("the documented pre-commit hook fails a commit that deletes sections, and says what goes", () => {
    // The hook as .pre-commit-hooks.yaml runs it, with the args docs/CLI.md gives.
    const entry = readFileSync(join(root, ".pre-commit-hooks.yaml"), "utf8").match(/- id: memdoc-check\n(?:.*\n)*?\s+entry: memdoc (.+)\n/)[1].split(" ");
    const args = readFileSync(join(root, "docs", "CLI.md"), "utf8").match(/\{ id: memdoc-check, args: \[([^\]]*)\] \}/)[1].split(",").map((a) => a.trim());
    const repo = mkdtempSync(join(work, "repo-"));
    const git = (...a) => {
      const done = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...a], { cwd: repo, encoding: "utf8" });
      assert.equal(done.status, 0, done.stderr);
    };
    const before = [
      "## Decisions",
      "- 2025-03-16: Services use PostgreSQL 16",
      "- 2025-03-17: Deploy on Tuesdays after the review",
      "",
      "## Facts",
      "- 2025-03-18: The office is in Oslo, fourth floor",
      "- 2025-03-19: The team has six engineers and one designer",
      "",
      "## Conventions",
      "- 2025-03-20: Code review needs two approvals",
      "- 2025-03-21: Every service has a runbook in the wiki",
      "",
    ].join("\n");
    git("init", "-q");
    writeFileSync(join(repo, "MEMORY.md"), before);
    git("add", "MEMORY.md");
    git("commit", "-qm", "memory");
    writeFileSync(join(repo, "MEMORY.md"), "## Decisions\n- 2025-03-16: Services use PostgreSQL 16\n");
    const outputs = frontEnds().map(([, prefix]) => run(prefix, [...entry, ...args, "MEMORY.md"], { cwd: repo }));
    assert.deepEqual(outputs[1], outputs[0]);
    assert.equal(outputs[0].status, 1, `the commit must fail: ${outputs[0].stdout}`);
    assert.match(outputs[0].stdout, /^MEMORY\.md: error diff\/section-removed: The section `## Facts` /m);
    assert.match(outputs[0].stdout, /^MEMORY\.md: error diff\/shrink: /m);
    writeFileSync(join(repo, "MEMORY.md"), `${before}\n## Open questions\n- 2025-03-22: Which CI?\n`);
    assert.equal(run(frontEnds()[0][1], [...entry, ...args, "MEMORY.md"], { cwd: repo }).status, 0, "a commit that adds passes");
  });

  test("standard input as -", () => {
    const r = both(["check", "--scope", "team", "-"], { input: fixtures["personal.md"] });
    assert.match(r.stdout, /^-:1:1: error scope\/personal-heading/);
  });

  test("unreadable files and bad values: exit 2, one line each", () => {
    let r = both(["check", "clean.md", "missing.md", "latin1.md"]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, "memdoc: missing.md: cannot read it: no such file\nmemdoc: latin1.md: cannot read it: not UTF-8 text\n");
    r = both(["check", "--scope", "admin", "clean.md"]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, 'memdoc: invalid scope "admin": expected "user" or "team" (options/invalid-scope)\n');
    r = both(["check", "--format", "xml", "clean.md"]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown format "xml"/);
    r = both(["check", "--previous", "missing.md", "clean.md"]);
    assert.equal(r.status, 2);
  });

  test("colour only on a terminal, and never with NO_COLOR", (t) => {
    const hasScript = spawnSync("script", ["--version"]).status === 0;
    if (!hasScript) return t.skip("no `script` to give the command a terminal");
    const dir = folder();
    const onTerminal = (prefix, env) =>
      spawnSync("script", ["-qec", commandLine(prefix, ["check", "--scope", "team", "personal.md"]), "/dev/null"], {
        cwd: dir,
        env: { ...process.env, ...env },
        encoding: "utf8",
      }).stdout;
    const coloured = frontEnds().map(([, prefix]) => onTerminal(prefix, { NO_COLOR: "" }));
    assert.equal(coloured[1], coloured[0]);
    assert.ok(coloured[0].includes("\u001b[1;31merror\u001b[0m"), JSON.stringify(coloured[0]));
    const plain = frontEnds().map(([, prefix]) => onTerminal(prefix, { NO_COLOR: "1" }));
    assert.equal(plain[1], plain[0]);
    assert.ok(!plain[0].includes("\u001b["), JSON.stringify(plain[0]));
  });
});

describe("memdoc fmt", () => {
  test("--check: a unified diff and exit 1, nothing written", () => {
    const r = both(["fmt", "--check", "crlf.md", "canonical.md"]);
    assert.equal(r.status, 1);
    assert.equal(r.files["crlf.md"], fixtures["crlf.md"]);
    assert.equal(
      r.stdout,
      "--- crlf.md\n+++ crlf.md\t(canonical)\n@@ -1,4 +1,2 @@\n-## Facts   \n-  - (2024-11-02) [fact] legacy\n-\n-\n+## Facts\n+- 2024-11-02: legacy\n",
    );
    assert.equal(both(["fmt", "--check", "canonical.md"]).status, 0);
  });

  test("in place: the file form, what changed said; text before the first heading never dropped unless asked", () => {
    const r = both(["fmt", "crlf.md", "warn.md", "canonical.md"]);
    assert.equal(r.status, 1, "a file would lose text");
    assert.equal(r.files["crlf.md"], `${render(fixtures["crlf.md"])}\n`);
    assert.equal(r.files["warn.md"], fixtures["warn.md"], "left as it is");
    assert.equal(
      r.stderr,
      "memdoc: crlf.md: reformatted\n" +
        'memdoc: warn.md: would drop a line before the first heading: "Sure, here it is:"\n' +
        "memdoc: warn.md: left as it is: move those lines under a heading, or pass --drop-preamble to drop them\n" +
        "memdoc: 1 file reformatted, 1 file left unchanged, 1 file not reformatted (text would be dropped)\n",
    );
    const dropped = both(["fmt", "--drop-preamble", "warn.md"]);
    assert.equal(dropped.status, 0);
    assert.equal(dropped.files["warn.md"], `${render(fixtures["warn.md"])}\n`);
    assert.equal(dropped.stderr, 'memdoc: warn.md: dropped a line before the first heading: "Sure, here it is:"\nmemdoc: warn.md: reformatted\nmemdoc: 1 file reformatted\n');
    assert.equal(both(["fmt", "canonical.md"]).stderr, "memdoc: 1 file left unchanged\n");
    assert.equal(both(["fmt", "--check", "crlf.md"]).status, 1, "a fresh folder each time");
  });

  test("- reads standard input and writes standard output", () => {
    const r = both(["fmt", "-"], { input: fixtures["crlf.md"] });
    assert.equal(r.stdout, "## Facts\n- 2024-11-02: legacy\n");
    assert.equal(r.stderr, "");
    const kept = both(["fmt", "-"], { input: fixtures["warn.md"] });
    assert.deepEqual([kept.stdout, kept.status], [fixtures["warn.md"], 1], "its input unchanged when it would drop text");
  });
});

describe("memdoc merge", () => {
  test("clean: the engine's merge written to OURS, exit 0", () => {
    const r = both(["merge", "base.md", "ours.md", "theirs-clean.md"]);
    assert.equal(r.status, 0);
    const merged = merge(fixtures["base.md"], fixtures["ours.md"], fixtures["theirs-clean.md"]);
    assert.ok(merged.clean);
    assert.equal(r.files["ours.md"], `${merged.content}\n`);
    assert.ok(r.files["ours.md"].includes("Ship on Fridays\n- 2025-03-03: Freeze in December"));
  });

  test("conflicts: markers in OURS, each listed, exit 1", () => {
    const r = both(["merge", "base.md", "ours.md", "theirs.md"]);
    assert.equal(r.status, 1);
    assert.equal(
      r.files["ours.md"],
      "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Ship on Fridays\n- 2025-03-03: Freeze in December\n\n## Notes\n<<<<<<< ours\nour note\n||||||| base\nold note\n=======\ntheir note\n>>>>>>> theirs\n",
    );
    assert.equal(r.stderr, 'memdoc: ours.md: 1 conflict (marked with <<<<<<< ours and >>>>>>> theirs):\nmemdoc:   section "Notes": lines changed differently on both sides\n');
  });
});

describe("recall, compact, expire, prompt", () => {
  test("recall within a budget, with --explain", () => {
    const r = both(["recall", "big.md", "database deploys", "--budget", "300", "--explain"]);
    assert.equal(r.status, 0);
    const [content, explanation] = r.stdout.split("\n\n+ ");
    assert.ok(content.startsWith("## Decisions\n"), content);
    assert.ok([...content].length <= 301);
    assert.match(`+ ${explanation}`, /^\+ \d\.\d{3} \[Decisions\] 2025-04-1\d: Decision \d+ on the database and the deploys \(database, deploys; relevance /);
    assert.match(r.stdout, /\n- \d\.\d{3} \[Current Priorities\] .*; left out: no-match, under the floor of 0\.500\)\n/);
    assert.match(r.stdout, /\n# \d+ of 24 items, \d+ of 300 characters/);
    assert.equal(both(["recall", "big.md", "x", "--budget", "0"]).status, 2);
  });

  test("compact to a target, each removal on standard error", () => {
    const r = both(["compact", "big.md", "--to", "600"]);
    assert.equal(r.status, 0);
    assert.ok([...r.stdout].length <= 601);
    assert.match(r.stderr, /^memdoc: big\.md: removed \(oldest\) \[Current Priorities\] 2025-0\d-1\d: Priority number/m);
    assert.match(r.stderr, /memdoc: big\.md: 1,\d{3} → \d{3} characters \(target 600\)\n$/);
    assert.equal(both(["compact", "big.md", "--to", "5"]).status, 1, "does not fit");
    assert.equal(both(["compact", "big.md", "--to", "ten"]).status, 2);
  });

  test("--scope: a team file is ranked and compacted as a team's (decisions first), a user's by default", () => {
    const priority = (args) => both(["recall", "scoped.md", "use", "--explain", ...args]).stdout.match(/\[Decisions\] .*priority (\d\.\d{3})\)/)[1];
    assert.equal(priority(["--scope", "team"]), "1.000");
    assert.equal(priority([]), "0.333");
    assert.equal(priority(["--scope", "user"]), "0.333");
    const team = both(["compact", "scoped.md", "--to", "70", "--scope", "team"]);
    assert.equal(team.stdout, "## Decisions\n- 2025-03-01: Use Postgres for services\n\n## Notes\n");
    assert.match(team.stderr, /^memdoc: scoped\.md: removed \(oldest\) \[Notes\] /);
    const user = both(["compact", "scoped.md", "--to", "70"]);
    assert.match(user.stderr, /^memdoc: scoped\.md: removed \(oldest\) \[Decisions\] /);
    for (const command of [["recall", "scoped.md", "use"], ["compact", "scoped.md", "--to", "70"]]) {
      const bad = both([...command, "--scope", "everyone"]);
      assert.deepEqual([bad.status, bad.stderr], [2, 'memdoc: invalid scope "everyone": expected "user" or "team" (options/invalid-scope)\n']);
    }
  });

  test("expire by policy, each expired entry on standard error", () => {
    const r = both(["expire", "big.md", "--policy", "Current Priorities=60", "--today", "2025-06-01"]);
    assert.equal(r.status, 0);
    assert.match(r.stderr, /^memdoc: big\.md: expired \[Current Priorities\] 2025-01-10: Priority number 0/);
    assert.ok(!r.stdout.includes("2025-01-10"));
    assert.equal(both(["expire", "big.md", "--policy", "Notes", "--today", "2025-06-01"]).status, 2);
    assert.equal(both(["expire", "big.md", "--policy", "Notes=3", "--today", "2025-02-30"]).status, 2);
  });

  test("prompt: the block an agent sees", () => {
    const r = both(["prompt", "clean.md", "--scope", "team"]);
    assert.match(r.stdout, /^<team_memory chars="\d+" limit="25000">\n## Decisions\n- 2025-03-15: Ship on Fridays\n<\/team_memory>\n$/);
    assert.equal(both(["prompt", "clean.md", "--scope", "everyone"]).status, 2);
  });
});

describe("usage", () => {
  test("usage errors exit 2 in both", () => {
    for (const args of [["check"], ["check", "--nope", "a.md"], ["fmt"], ["merge", "a", "b"], ["compact", "big.md"], ["hub", "pull", "t"], ["hub"], [], ["frobnicate"]]) {
      const outputs = frontEnds().map(([, prefix]) => run(prefix, args, { cwd: work }));
      for (const o of outputs) {
        assert.equal(o.status, 2, `memdoc ${args.join(" ")}: ${o.stderr}`);
        // An error, or (clap, without a command) the help alone.
        assert.match(o.stderr, /^error: |Usage: memdoc/);
      }
    }
  });

  test("the hub without MEMDOC_HUB_URL or MEMDOC_HUB_KEY", () => {
    let r = both(["hub", "pull", "t", "team", "eng"], { env: { MEMDOC_HUB_URL: undefined, MEMDOC_HUB_KEY: undefined } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^memdoc: MEMDOC_HUB_URL is not set/);
    r = both(["hub", "pull", "t", "team", "eng"], { env: { MEMDOC_HUB_URL: "http://127.0.0.1:9", MEMDOC_HUB_KEY: undefined } });
    assert.match(r.stderr, /^memdoc: MEMDOC_HUB_KEY is not set/);
    r = both(["hub", "pull", "t", "team", "eng"], { env: { MEMDOC_HUB_URL: "http://127.0.0.1:9/", MEMDOC_HUB_KEY: "k" } });
    assert.equal(r.status, 4);
    assert.equal(r.stderr, "memdoc: hub: cannot reach http://127.0.0.1:9 (is MEMDOC_HUB_URL right, and the hub running?)\n");
  });
});

describe("memdoc --help", () => {
  test("every command's help is the same in both front ends, options described", () => {
    const helps = JSON.parse(readFileSync(join(import.meta.dirname, "..", "pkg-template", "cli-help.json"), "utf8"));
    assert.ok(Object.keys(helps).length > 20, "should list every command");
    for (const path of Object.keys(helps)) {
      const r = both([...(path ? path.split(" ") : []), "--help"]);
      assert.equal(r.status, 0, `memdoc ${path} --help`);
      assert.equal(r.stdout, helps[path], `memdoc ${path} --help should print its clap help`);
    }
    const check = both(["check", "--help"]).stdout;
    assert.match(check, /^ {6}--scope <team\|user> +Whose memory the files are/m);
  });
});
