// Memory where agents work (docs/CLI.md, "memdoc init", "Agent hooks",
// "memdoc import", "recall --trace"), for both front ends, in real git
// repositories: `memdoc init` on an empty repository and on one with a
// memory, twice; two clones that add entries on two branches, merged by the
// driver init registered; the hooks of the Claude Code and Codex
// configurations of docs/CLI.md, run as the agents run them (the command
// lines as written there, a `memdoc` on PATH, the agent's JSON on standard
// input); a proposal saved to a file and to the hub in workerd; each
// importer on fixtures of its own, with what it could not map; the trace of
// an entry cut for the budget.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { startWorkerd } from "../hub/run.mjs";
import { parse, recall, render } from "../pkg/node.js";
import { commandLine, frontEnds, hubCall, run, runAsync } from "./cli-helpers.mjs";
import { root } from "./helpers.mjs";

const work = mkdtempSync(join(tmpdir(), "memdoc-agents-"));
after(() => rmSync(work, { recursive: true, force: true }));

const docs = readFileSync(join(root, "docs", "CLI.md"), "utf8");
const fixtures = join(root, "test-js", "fixtures", "import");
const codePoints = (text) => [...text].length;

/** A folder holding `memdoc`, a shell script that runs front end `prefix`: for PATH. */
function shim(name, prefix) {
  const dir = join(work, `bin-${name}`);
  if (!existsSync(dir)) {
    mkdirSync(dir);
    writeFileSync(join(dir, "memdoc"), `#!/bin/sh\nexec ${commandLine(prefix)} "$@"\n`);
    chmodSync(join(dir, "memdoc"), 0o755);
  }
  return dir;
}

/** A new git repository (`bare`: a bare one to clone from); `git(...args)` in it. */
function repository(o = {}) {
  const repo = mkdtempSync(join(work, "repo-"));
  const git = gitIn(repo);
  git("init", "-q", "-b", "main", ...(o.bare ? ["--bare"] : []));
  return { repo, git };
}

function gitIn(dir) {
  return (...args) => {
    const done = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, encoding: "utf8" });
    assert.equal(done.status, 0, `git ${args.join(" ")}: ${done.stderr}`);
    return done.stdout;
  };
}

/** Every file of the repository but .git, with its text. */
function tree(repo) {
  return Object.fromEntries(
    readdirSync(repo, { recursive: true })
      .filter((f) => !f.startsWith(".git/") && f !== ".git" && statSync(join(repo, f)).isFile())
      .map((f) => [f, readFileSync(join(repo, f), "utf8")]),
  );
}

const driverOf = (git) => spawnSync("git", ["config", "--get", "merge.memdoc.driver"], { cwd: git, encoding: "utf8" }).stdout.trim();

describe("memdoc init", () => {
  test("an empty repository: the memory, the attribute, the driver, the hooks; again: nothing changes", () => {
    const outputs = [];
    for (const [name, prefix] of frontEnds()) {
      const { repo } = repository();
      const dry = run(prefix, ["init", "--dry-run"], { cwd: repo });
      assert.equal(dry.status, 0, dry.stderr);
      assert.deepEqual(tree(repo), {}, "--dry-run writes nothing");
      assert.equal(driverOf(repo), "", "--dry-run sets nothing");
      assert.match(dry.stdout, /^MEMORY\.md: would create the team memory\n {2}\| ## Decisions\n/);
      assert.match(dry.stdout, /^\.gitattributes: would add `MEMORY\.md merge=memdoc`\n {2}\| MEMORY\.md merge=memdoc$/m);
      assert.match(dry.stdout, /^ {2}\| {7}- \{ id: memdoc-check, args: \[--scope, team, --previous-rev, HEAD, --deny-losses\] \}$/m);

      const first = run(prefix, ["init"], { cwd: repo });
      assert.equal(first.status, 0, first.stderr);
      const files = tree(repo);
      assert.deepEqual(Object.keys(files).sort(), [".gitattributes", ".pre-commit-config.yaml", "MEMORY.md"]);
      assert.equal(files[".gitattributes"], "MEMORY.md merge=memdoc\n");
      assert.equal(files["MEMORY.md"], render(files["MEMORY.md"]) + "\n", "a memory in its file form");
      assert.match(files[".pre-commit-config.yaml"], /^repos:\n {2}- repo: https:\/\/github\.com\/memdoc\/memdoc\n/);
      assert.equal(driverOf(repo), "memdoc merge %O %A %B %P");
      // The memory passes the hooks init added.
      assert.equal(run(prefix, ["check", "--scope", "team", "MEMORY.md"], { cwd: repo }).status, 0);
      assert.equal(run(prefix, ["fmt", "--check", "MEMORY.md"], { cwd: repo }).status, 0);

      const second = run(prefix, ["init"], { cwd: repo });
      assert.equal(second.status, 0, second.stderr);
      assert.deepEqual(tree(repo), files, "a second init changes no file");
      assert.match(second.stdout, /^MEMORY\.md: adopted as the team memory; valid and in canonical form$/m);
      assert.match(second.stdout, /^\.gitattributes: already has `MEMORY\.md merge=memdoc`$/m);
      assert.match(second.stdout, /^git config merge\.memdoc\.driver: already set to `memdoc merge %O %A %B %P`$/m);
      assert.match(second.stdout, /^\.pre-commit-config\.yaml: already has the memdoc hooks$/m);
      outputs.push([dry.stdout, first.stdout, second.stdout]);
    }
    assert.deepEqual(outputs[1], outputs[0], "both front ends print the same");
  });

  test("a repository with a memory and files of its own: reported, never rewritten; idempotent", () => {
    const memory = "Our notes:\n## Decisions\n-  2025-03-15: Ship on Fridays\n## Preferences\n- 2025-01-01: dark mode\n";
    const precommit = "repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n";
    const outputs = [];
    for (const [name, prefix] of frontEnds()) {
      const { repo } = repository();
      mkdirSync(join(repo, "docs"));
      writeFileSync(join(repo, "docs", "TEAM.md"), memory);
      writeFileSync(join(repo, ".gitattributes"), "*.png binary");
      writeFileSync(join(repo, ".pre-commit-config.yaml"), precommit);
      // From a folder below the root: --file is relative to it.
      const first = run(prefix, ["init", "--file", "TEAM.md"], { cwd: join(repo, "docs") });
      assert.equal(first.status, 1, "the memory has an error: exit 1");
      assert.equal(readFileSync(join(repo, "docs", "TEAM.md"), "utf8"), memory, "the memory is not rewritten");
      assert.match(first.stdout, /^docs\/TEAM\.md: adopted as the team memory, left as it is$/m);
      assert.match(first.stdout, /^docs\/TEAM\.md:4:1: error scope\/personal-heading: /m);
      assert.match(first.stdout, /^-Our notes:$/m, "the diff fmt would apply");
      assert.match(first.stdout, /`memdoc fmt docs\/TEAM\.md` to rewrite it/);
      assert.equal(readFileSync(join(repo, ".gitattributes"), "utf8"), "*.png binary\ndocs/TEAM.md merge=memdoc\n");
      const config = readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8");
      assert.ok(config.startsWith(precommit), "the user's hooks stay");
      assert.match(config, /\n- repo: https:\/\/github\.com\/memdoc\/memdoc\n {2}rev: v\d/, "joins the list at its indentation");
      assert.match(config, /files: '\^docs\/TEAM\\\.md\$'/);
      const files = tree(repo);
      const second = run(prefix, ["init", "--file", "TEAM.md"], { cwd: join(repo, "docs") });
      assert.equal(second.status, 1);
      assert.deepEqual(tree(repo), files, "a second init changes no file");
      outputs.push([first.stdout, second.stdout]);
    }
    assert.deepEqual(outputs[1], outputs[0], "both front ends print the same");
  });

  test("outside a repository: exit 2, nothing written", () => {
    for (const [, prefix] of frontEnds()) {
      const dir = mkdtempSync(join(work, "plain-"));
      const done = run(prefix, ["init"], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: work } });
      assert.equal(done.status, 2);
      assert.match(done.stderr, /^memdoc: init: run it in a git repository \(/);
      assert.deepEqual(readdirSync(dir), []);
    }
  });

  for (const [name, prefix] of frontEnds()) {
    test(`${name}: two clones add entries on two branches; the driver init registered merges them`, () => {
      const env = { PATH: `${shim(name, prefix)}:${process.env.PATH}` };
      const origin = repository({ bare: true });
      const seed = mkdtempSync(join(work, "seed-"));
      gitIn(work)("clone", "-q", origin.repo, seed);
      assert.equal(run(["memdoc"], ["init"], { cwd: seed, env }).status, 0);
      writeFileSync(join(seed, "MEMORY.md"), "## Decisions\n- 2025-03-01: Use Postgres\n\n## Conventions\n- 2025-03-02: Squash merges\n");
      gitIn(seed)("add", "-A");
      gitIn(seed)("commit", "-qm", "Team memory");
      gitIn(seed)("push", "-q", "origin", "main");

      const clone = (branch, entries) => {
        const dir = mkdtempSync(join(work, `${branch}-`));
        const git = gitIn(dir);
        git("clone", "-q", origin.repo, ".");
        // The driver lives in .git/config: each clone runs init once.
        const init = run(["memdoc"], ["init"], { cwd: dir, env });
        assert.equal(init.status, 0, init.stderr);
        assert.deepEqual(Object.keys(tree(dir)).sort(), [".gitattributes", ".pre-commit-config.yaml", "MEMORY.md"]);
        git("checkout", "-q", "-b", branch);
        writeFileSync(join(dir, "MEMORY.md"), readFileSync(join(dir, "MEMORY.md"), "utf8").replace("Use Postgres\n", `Use Postgres\n${entries}`));
        git("commit", "-qam", branch);
        return { dir, git };
      };
      const a = clone("alice", "- 2025-03-10: Ship on Fridays\n- 2025-03-11: Use Rust for the engine\n");
      const b = clone("bob", "- 2025-03-12: Freeze in December\n");
      a.git("push", "-q", "origin", "alice");
      b.git("fetch", "-q", "origin");
      const merged = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "--no-edit", "origin/alice"], { cwd: b.dir, encoding: "utf8", env: { ...process.env, ...env } });
      assert.equal(merged.status, 0, merged.stdout + merged.stderr);
      const text = readFileSync(join(b.dir, "MEMORY.md"), "utf8");
      // Both branches' entries: ours' (bob's, merging) first, then theirs'.
      assert.equal(text, "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-12: Freeze in December\n- 2025-03-10: Ship on Fridays\n- 2025-03-11: Use Rust for the engine\n\n## Conventions\n- 2025-03-02: Squash merges\n");
    });
  }
});

// ---------------------------------------------------------------------------

/** The JSON of the fenced block after `marker` in docs/CLI.md. */
function documented(marker) {
  const at = docs.indexOf(marker);
  assert.ok(at >= 0, `docs/CLI.md has ${marker}`);
  const block = docs.slice(at).match(/```json\n([\s\S]*?)\n```/);
  return JSON.parse(block[1]);
}

/** The command lines of a hooks configuration, by event. */
function commandsOf(config) {
  return Object.fromEntries(Object.entries(config.hooks).map(([event, groups]) => [event, groups.flatMap((g) => g.hooks.map((h) => h.command))]));
}

// Forty decisions on forty different subjects (the same subject at two
// dates would be one fact replaced: recall keeps the newest).
const SUBJECTS = "alpine banyan cedar dogwood elm fir ginkgo hazel ivy juniper kapok larch maple nutmeg oak poplar quince rowan spruce teak umbrella vine willow yew zelkova acacia birch cypress date ebony fig guava holly iris jasmine kiwi lemon mango neem olive".split(" ");
const BIG = [
  "## Decisions",
  ...SUBJECTS.map((subject, k) => `- 2025-04-${String(1 + (k % 28)).padStart(2, "0")}: ${subject[0].toUpperCase()}${subject.slice(1)}: Decision for the deploy pipeline and the release train`),
  "- 2025-05-01: The staging database is called saffron",
  "",
  "## Conventions",
  ...Array.from({ length: 30 }, (_, k) => `- 2025-03-${String(1 + (k % 28)).padStart(2, "0")}: Convention ${k} for reviews and commits`),
  "",
].join("\n");

describe("agent hooks, as docs/CLI.md configures them", () => {
  const agents = {
    "Claude Code": { marker: "<!-- claude-code-hooks -->", events: { start: "SessionStart", compact: "PreCompact", stop: "Stop" }, env: (repo) => ({ CLAUDE_PROJECT_DIR: repo }) },
    Codex: { marker: "<!-- codex-hooks -->", events: { start: "SessionStart", compact: "PreCompact", stop: "Stop" }, env: () => ({}) },
  };

  for (const [agent, spec] of Object.entries(agents)) {
    for (const [name, prefix] of frontEnds()) {
      test(`${agent}, ${name}: the session block within its budget; a proposal at stop and before compaction lands in the file`, () => {
        const commands = commandsOf(documented(spec.marker));
        const { repo } = repository();
        writeFileSync(join(repo, "MEMORY.md"), BIG);
        const env = { PATH: `${shim(name, prefix)}:${process.env.PATH}`, ...spec.env(repo) };
        // The agents run a hook's command with a shell, in the project.
        const hook = (event, payload) => {
          const [command] = commands[event];
          return run(["sh", "-c", command], [], { cwd: repo, env, input: JSON.stringify({ session_id: "s1", cwd: repo, hook_event_name: event, ...payload }) });
        };

        const start = hook(spec.events.start, { source: "startup" });
        assert.equal(start.status, 0, start.stderr);
        const budget = Number(commands[spec.events.start][0].match(/--budget (\d+)/)?.[1] ?? 4000);
        assert.ok(codePoints(start.stdout) <= budget, `${codePoints(start.stdout)} code points, over the budget of ${budget}`);
        assert.match(start.stdout, /^<team_memory chars="\d+" limit="\d+" recalled="\d+ of 71">\n## Decisions\n/);
        assert.match(start.stdout, /fenced block whose info string is memdoc/);

        const reply = "Done: the migration runs.\n\n```memdoc\n## Decisions\n- Migrations run in CI before deploys\n```\n";
        const stop = hook(spec.events.stop, { stop_hook_active: false, last_assistant_message: reply, transcript_path: join(repo, "none.jsonl") });
        assert.equal(stop.status, 0, stop.stderr);
        const today = new Date().toISOString().slice(0, 10);
        const text = readFileSync(join(repo, "MEMORY.md"), "utf8");
        assert.ok(text.includes(`- ${today}: Migrations run in CI before deploys\n`), text.slice(-400));
        assert.equal(parse(text).sections.flatMap((s) => s.lines).filter((l) => l.kind === "entry").length, 72, "every entry there before, and the new one");

        // Before compaction: the proposals of the whole transcript.
        const transcript = join(repo, ".transcript.jsonl");
        writeFileSync(
          transcript,
          [
            { type: "user", message: { role: "user", content: "Set up the cache" } },
            { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Noted.\n```memdoc\n## Conventions\n- Cache keys carry the schema version\n```" }] } },
            { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Also:\n```memdoc\n- Migrations run in CI before deploys\n```" }] } },
          ]
            .map((l) => JSON.stringify(l))
            .join("\n"),
        );
        const compact = hook(spec.events.compact, { trigger: "auto", custom_instructions: "", transcript_path: transcript });
        assert.equal(compact.status, 0, compact.stderr);
        const after = readFileSync(join(repo, "MEMORY.md"), "utf8");
        assert.match(after, new RegExp(`^## Conventions\\n(- .*\\n)*- ${today}: Cache keys carry the schema version\\n`, "m"));
        // Proposed again (under no section): one fact, once.
        assert.equal(after.split("Migrations run in CI before deploys").length, 2);

        // A proposal the rules refuse changes nothing, and says why.
        const refused = hook(spec.events.stop, { last_assistant_message: "```memdoc\n## Preferences\n- I like tea\n```" });
        assert.equal(refused.status, 1);
        assert.match(refused.stderr, /the save rules refuse the result/);
        assert.match(refused.stderr, /scope\/personal-heading/);
        assert.equal(readFileSync(join(repo, "MEMORY.md"), "utf8"), after);

        // A reply without a proposal: nothing at all.
        const quiet = hook(spec.events.stop, { last_assistant_message: "All done." });
        assert.deepEqual([quiet.status, quiet.stdout, quiet.stderr], [0, "", ""]);
        assert.equal(readFileSync(join(repo, "MEMORY.md"), "utf8"), after);
      });
    }
  }

  test("session-start: the whole block when it fits, a recall for --query, and the same bytes from both front ends", () => {
    const outputs = [];
    for (const [, prefix] of frontEnds()) {
      const { repo } = repository();
      writeFileSync(join(repo, "MEMORY.md"), BIG);
      writeFileSync(join(repo, "SMALL.md"), "## Decisions\n- 2025-03-01: Use Postgres\n");
      const small = run(prefix, ["hook", "session-start", "--file", "SMALL.md"], { cwd: repo });
      assert.match(small.stdout, /^<team_memory chars="\d+" limit="\d+">\n## Decisions\n- 2025-03-01: Use Postgres\n<\/team_memory>/);
      const query = run(prefix, ["hook", "session-start", "--query", "staging database name", "--budget", "700"], { cwd: repo });
      assert.equal(query.status, 0, query.stderr);
      assert.ok(codePoints(query.stdout) <= 700);
      assert.match(query.stdout, /saffron/);
      const tiny = run(prefix, ["hook", "session-start", "--budget", "50"], { cwd: repo });
      assert.equal(tiny.status, 1, "a hook never exits 2, which an agent takes as an order");
      assert.match(tiny.stderr, /^memdoc: a budget of 50 cannot hold the block/);
      const missing = run(prefix, ["hook", "stop", "--file", "NOPE.md"], { cwd: repo, input: "- A proposal\n" });
      assert.deepEqual([missing.status, missing.stderr], [1, "memdoc: NOPE.md: cannot read it: no such file\n"]);
      outputs.push([small, query, tiny, missing]);
    }
    assert.deepEqual(outputs[1], outputs[0]);
  });
});

// ---------------------------------------------------------------------------

describe("memdoc recall --trace", () => {
  test("an entry cut for the budget is listed with that reason", () => {
    const outputs = [];
    const file = join(work, "trace.md");
    writeFileSync(file, BIG);
    for (const [, prefix] of frontEnds()) {
      // By words, as `recall` below: the trace is the same by meaning (cli-recall.test.mjs).
      const done = run(prefix, ["recall", file, "deploy pipeline decision", "--budget", "300", "--trace", "--embedder", "none"]);
      assert.equal(done.status, 0, done.stderr);
      const [recalled, trace] = done.stdout.split(/\n(?=# not recalled: )/);
      const expected = recall(BIG, "deploy pipeline decision", { budget: 300 });
      assert.equal(recalled, `${expected.content}\n`);
      const lines = trace.trimEnd().split("\n");
      const counts = {};
      for (const item of expected.omitted) counts[item.reason] = (counts[item.reason] ?? 0) + 1;
      assert.equal(lines[0], `# not recalled: ${expected.omitted.length} of ${expected.totals.items} items (${Object.entries(counts).map(([r, n]) => `${r} ${n}`).join(", ")})`);
      assert.equal(lines.length, expected.omitted.length + 1);
      // A decision that matched the query but did not fit: cut for the budget.
      const cut = expected.omitted.find((item) => item.reason === "budget" && item.text.includes("Decision"));
      assert.ok(cut, "the fixture cuts a matching decision for the budget");
      assert.ok(lines.includes(`budget\t${(Math.round(cut.score * 1000) / 1000).toFixed(3)}\t[Decisions] ${cut.date}: ${cut.text.replace(/^- \d{4}-\d\d-\d\d: /, "")}`), trace);
      const scores = lines.slice(1).map((l) => Number(l.split("\t")[1]));
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "best score first");
      outputs.push(done);
    }
    assert.deepEqual(outputs[1], outputs[0]);
  });
});

// ---------------------------------------------------------------------------

describe("memdoc import", () => {
  const cases = {
    "mcp-memory": {
      files: ["memory.jsonl"],
      has: [/^## Ada Lovelace \(person\)\n- \d{4}-\d\d-\d\d: Writes the release notes\n/m, /- \d{4}-\d\d-\d\d: Ada Lovelace works at Analytical Engines\n/, /^## Analytical Engines \(organization\)\n/m],
      unmapped: [/memory\.jsonl:4: not a JSON object/, /memory\.jsonl:5: a record of type note/, /memory\.jsonl:1: the field source of Ada Lovelace/],
    },
    "claude-md": {
      files: ["MEMORY.md", "debugging.md"],
      has: [
        /^## Build\n- \d{4}-\d\d-\d\d: Run cargo build --release before the benchmarks\n/m,
        /^## Style\nPrefer small commits\.\n- \d{4}-\d\d-\d\d: Commit messages read "Area: what changed and why"\n/m,
        /^## Debugging\nNotes from fixing flaky tests\.\n- \d{4}-\d\d-\d\d: The flaky test is the one that binds port 8787\n(.*\n)*- \d{4}-\d\d-\d\d: Retry once before failing the job\n/m,
      ],
      unmapped: [/MEMORY\.md:\d+: an index line, its file imported itself: \[Debugging notes\]\(debugging\.md\)/, /debugging\.md:\d+: a heading below level 3/],
    },
    "basic-memory": {
      files: ["search-design.md"],
      has: [/^## Search Design\n/m, /- \d{4}-\d\d-\d\d: \[decision\] Use BM25 for the first ranking #search/, /- \d{4}-\d\d-\d\d: implements \[\[Recall Engine\]\]/],
      unmapped: [/search-design\.md:3: the front matter's type/, /search-design\.md:4: the front matter's permalink/, /search-design\.md:5: the front matter's tags/],
    },
    mem0: {
      files: ["mem0-export.json"],
      has: [/^## Preferences\n- 2025-02-11: Prefers short pull requests\n/m, /^## Memories\n- 2025-02-12: The team deploys on Thursdays\n/m],
      unmapped: [/mem0-export\.json:1: memory 3 has no text/, /mem0-export\.json:1: the fields updated_at, user_id, metadata, score of its memories/],
    },
  };

  for (const [kind, c] of Object.entries(cases)) {
    test(`${kind}: --dry-run shows the memory and what was not imported; --file adds it to a memory by the merge rules`, () => {
      const outputs = [];
      for (const [, prefix] of frontEnds()) {
        const dir = mkdtempSync(join(work, `import-${kind}-`));
        const files = c.files.map((f) => join(fixtures, f));
        const dry = run(prefix, ["import", "--from", kind, "--dry-run", "--file", "MEMORY.md", ...files], { cwd: dir });
        assert.equal(dry.status, 0, dry.stderr);
        assert.equal(existsSync(join(dir, "MEMORY.md")), false, "--dry-run writes nothing");
        for (const re of c.has) assert.match(dry.stdout, re);
        for (const re of c.unmapped) assert.match(dry.stderr, re);
        assert.match(dry.stderr, /^memdoc: import: \d+ sections?, \d+ entr(y|ies); \d+ parts? not imported$/m);

        writeFileSync(join(dir, "MEMORY.md"), "## Decisions\n- 2025-01-05: Keep the old entry\n");
        const into = run(prefix, ["import", "--from", kind, "--file", "MEMORY.md", ...files], { cwd: dir });
        assert.equal(into.status, kind === "mem0" ? 1 : 0, into.stderr);
        const text = readFileSync(join(dir, "MEMORY.md"), "utf8");
        if (kind === "mem0") {
          // Preferences is a personal heading: a team memory refuses it, whole.
          assert.match(into.stderr, /scope\/personal-heading/);
          assert.equal(text, "## Decisions\n- 2025-01-05: Keep the old entry\n");
        } else {
          assert.match(text, /^## Decisions\n- 2025-01-05: Keep the old entry\n/);
          for (const re of c.has) assert.match(text, re);
        }
        outputs.push([dry.stdout, dry.stderr.replaceAll(fixtures, "F"), into.stderr.replaceAll(fixtures, "F"), into.status, text]);
      }
      assert.deepEqual(outputs[1], outputs[0]);
    });
  }

  test("an unknown --from: exit 2, the kinds listed", () => {
    for (const [, prefix] of frontEnds()) {
      const done = run(prefix, ["import", "--from", "notion", join(fixtures, "memory.jsonl")]);
      assert.equal(done.status, 2);
      assert.equal(done.stderr, "memdoc: --from notion: import from mcp-memory, claude-md, basic-memory, mem0\n");
    }
  });
});

// ---------------------------------------------------------------------------

describe("hooks and imports into a hub's team memory (workerd)", () => {
  const operator = randomBytes(24).toString("base64url");
  let hub;
  let keys;
  before(async () => {
    hub = await startWorkerd({ build: join(work, "build"), persist: false, vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator } });
    const made = await call("POST", "/v1/teams", operator, { team: "acme", admin: "root" });
    assert.equal(made.status, 201);
    const key = async (member, role) => (await call("POST", "/v1/teams/acme/keys", made.json.key, { member, role })).json.key;
    keys = { alice: await key("alice", "writer"), bob: await key("bob", "writer") };
  });
  after(async () => {
    await hub?.stop();
  });

  const call = (method, path, key, body, headers) => hubCall(hub.url, method, path, key, body, headers);

  for (const [name, prefix] of frontEnds()) {
    test(`${name}: session-start from the hub, a stop proposal saved with If-Match, an import; what bob saved stays`, async () => {
      const id = `agents-${name}`;
      const env = { MEMDOC_HUB_URL: hub.url, MEMDOC_HUB_KEY: keys.alice };
      const memdoc = (args, input) => runAsync(prefix, args, { cwd: work, env, input });
      const bob = await call("PUT", `/v1/teams/acme/memories/team/${id}`, keys.bob, "## Decisions\n- 2025-03-01: Use Postgres\n", { "if-match": '"0"' });
      assert.equal(bob.status, 200);

      const start = await memdoc(["hook", "session-start", "--hub", `acme/team/${id}`, "--budget", "1000"]);
      assert.equal(start.status, 0, start.stderr);
      assert.ok(codePoints(start.stdout) <= 1000);
      assert.match(start.stdout, /Use Postgres/);

      const stop = await memdoc(["hook", "stop", "--hub", `acme/team/${id}`], JSON.stringify({ hook_event_name: "Stop", last_assistant_message: "```memdoc\n## Decisions\n- 2025-03-20: Ship on Fridays\n```" }));
      assert.equal(stop.status, 0, stop.stderr);
      assert.equal(stop.stderr, "memdoc: hub: saved the proposed entries as revision 2\n");
      const saved = await call("GET", `/v1/teams/acme/memories/team/${id}`, keys.bob);
      assert.equal(saved.json.content, "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-20: Ship on Fridays");
      assert.equal(saved.json.updatedBy, "alice");

      const again = await memdoc(["hook", "stop", "--hub", `acme/team/${id}`], "## Decisions\n- 2025-03-20: Ship on Fridays\n");
      assert.deepEqual([again.status, again.stderr], [0, "memdoc: hub: the memory holds every proposed entry already\n"]);

      const imported = await memdoc(["import", "--from", "mcp-memory", "--hub", `acme/team/${id}`, join(fixtures, "memory.jsonl")]);
      assert.equal(imported.status, 0, imported.stderr);
      assert.match(imported.stderr, /not imported: .*memory\.jsonl:4: not a JSON object/);
      assert.match(imported.stderr, /^memdoc: hub: saved the proposed entries as revision \d+$/m);
      const now = await call("GET", `/v1/teams/acme/memories/team/${id}`, keys.bob);
      assert.match(now.json.content, /^## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-20: Ship on Fridays\n/);
      assert.match(now.json.content, /^## Ada Lovelace \(person\)$/m);

      const refused = await memdoc(["hook", "stop", "--hub", `acme/team/${id}`], "## Preferences\n- tea\n");
      assert.equal(refused.status, 1);
      assert.equal((await call("GET", `/v1/teams/acme/memories/team/${id}`, keys.bob)).json.revision, now.json.revision, "nothing saved");
    });
  }
});
