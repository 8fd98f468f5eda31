// `memdoc recall` by meaning through both front ends (the Rust binary and
// the npm bin), with the real files setup leaves in target/models: the same
// bytes from both; the static table by default, e5 for a memory or question
// mostly not in Latin letters as hybridRecall's rule (language.js) chooses;
// the same recall as hybridRecall with the same embedder; `--embedder none`
// and no files found: by words, the latter with a hint; an installed copy
// of the package finds the table of @memdoc/static (docs/CLI.md).
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, test } from "node:test";

import { e5Embedder } from "../pkg/embedders/e5.js";
import { staticEmbedder } from "../pkg/embedders/static.js";
import { chooseEmbedder } from "../pkg/language.js";
import { hybridRecall, lruCache } from "../pkg/node.js";
import { frontEnds, run } from "./cli-helpers.mjs";
import { pkgDir, root } from "./helpers.mjs";

const models = join(root, "target", "models");
const work = mkdtempSync(join(tmpdir(), "memdoc-cli-recall-"));
after(() => rmSync(work, { recursive: true, force: true }));

// The memories cli/tests/recall.rs recalls from too.
const english = readFileSync(join(root, "tests", "recall", "cli", "english.md"), "utf8");

const chinese = readFileSync(join(root, "tests", "recall", "cli", "chinese.md"), "utf8");

const STATIC = "all-MiniLM-L6-v2-static-256-v2";
const E5 = "multilingual-e5-small-q4";

/**
 * `memdoc recall M.md ARGS` with `memory` through both front ends: the
 * same bytes (with e5, whose native and WebAssembly forward passes differ
 * within float error, the same recalled part and the same explanation but
 * for the scores' digits); the Rust binary's result.
 */
function both(memory, args, env = { MEMDOC_MODELS: models }) {
  const dir = mkdtempSync(join(work, "case-"));
  writeFileSync(join(dir, "M.md"), memory);
  const [rust, npm] = frontEnds().map(([, prefix]) => run(prefix, ["recall", "M.md", ...args], { cwd: dir, env }));
  const message = `both front ends should print the same for ${args.join(" ")}`;
  if (embedderOf(rust.stdout) !== E5) {
    assert.deepEqual(npm, rust, message);
    return rust;
  }
  // The explanation's lines of items, their scores masked.
  const scores = (stdout) => stdout.replace(/^[+-] \d\.\d{3} .*$/gm, (line) => line.replace(/\d\.\d{3}/g, "N"));
  assert.deepEqual([scores(npm.stdout), npm.stderr, npm.status], [scores(rust.stdout), rust.stderr, rust.status], message);
  return rust;
}

/** The embedder `--explain` names (undefined: by words). */
function embedderOf(stdout) {
  return stdout.match(/\n# by meaning \(([^)]+)\) and by words\n$/)?.[1];
}

/** The explanation's items taken, best score first: their text. */
function best(stdout) {
  return [...stdout.matchAll(/^\+ (\d\.\d{3}) \[[^\]]*\] \d{4}-\d\d-\d\d: (.*) \(/gm)]
    .sort((a, b) => Number(b[1]) - Number(a[1]))
    .map((m) => m[2]);
}

test("a question worded apart from its answer finds it with the static table, by default", () => {
  const r = both(english, ["which relational database do we run", "--explain"]);
  assert.equal(r.status, 0);
  assert.equal(r.stderr, "");
  assert.equal(embedderOf(r.stdout), STATIC);
  assert.equal(best(r.stdout)[0], "Services store their data in PostgreSQL 16");
  const words = both(english, ["which relational database do we run", "--explain", "--embedder", "none"]);
  assert.ok(words.stdout.endsWith("# nothing in the memory answers the question\n# by words only\n"), words.stdout);
});

test("a Chinese memory is recalled with e5", () => {
  for (const [question, answer] of [
    ["我们用的是哪种关系型数据库", "PostgreSQL 16"],
    ["线上出故障时谁会收到通知", "值班工程师"],
    ["我们在哪座城市上班", "奥斯陆"],
  ]) {
    const r = both(chinese, [question, "--explain"]);
    assert.equal(embedderOf(r.stdout), E5, question);
    assert.ok(best(r.stdout)[0].includes(answer), `${question}: ${best(r.stdout)}`);
  }
});

test("both front ends choose the embedder as hybridRecall's rule does", () => {
  const memories = { english, chinese, russian: "## Решения\n- 2025-03-01: Сервисы хранят данные в PostgreSQL 16\n" };
  const questions = ["which database do we use", "我们用哪个数据库", "Какая у нас база данных", "PostgreSQL 数据库", "16?"];
  for (const [name, memory] of Object.entries(memories)) {
    for (const question of questions) {
      const expected = chooseEmbedder(memory, question, STATIC, E5);
      assert.equal(embedderOf(both(memory, [question, "--explain"]).stdout), expected, `${question} of the ${name} memory`);
    }
  }
});

test("the CLI recalls what hybridRecall recalls with the same embedder", async () => {
  const file = (path) => pathToFileURL(join(models, path));
  const embedders = {
    static: await staticEmbedder({ table: file("static/all-MiniLM-L6-v2-static-256.i8"), tokenizer: file("all-MiniLM-L6-v2/tokenizer.json") }),
    e5: await e5Embedder({ model: file("multilingual-e5-small/e5-small-q4.bin") }),
  };
  for (const [memory, question, name] of [
    [english, "which relational database do we run", "static"],
    [english, "who gets woken up when production breaks", "static"],
    [english, "where do we work from", "e5"],
    [chinese, "线上出故障时谁会收到通知", "e5"],
    [chinese, "我们在哪座城市上班", "e5"],
  ]) {
    for (const budget of ["4000", "60"]) {
      const cli = both(memory, [question, "--embedder", name, "--budget", budget]);
      const recalled = await hybridRecall(memory, question, { embedder: embedders[name], budget: Number(budget), cache: lruCache() });
      assert.equal(recalled.semantic.model, embedders[name].id);
      assert.equal(cli.stdout, recalled.content === "" ? "" : `${recalled.content}\n`, `${question} with ${name}, budget ${budget}`);
    }
  }
});

test("without the embedders' files: by words, and how to get them on standard error", () => {
  const empty = join(work, "no-models");
  mkdirSync(empty, { recursive: true });
  const r = both(english, ["where is the data in PostgreSQL", "--explain"], { MEMDOC_MODELS: empty });
  assert.equal(r.status, 0);
  assert.ok(r.stdout.startsWith("## Decisions\n- 2025-03-01: Services store their data in PostgreSQL 16\n"), r.stdout);
  assert.ok(r.stdout.endsWith("\n# by words only\n"), r.stdout);
  assert.match(r.stderr, /^memdoc: recalled by words only: no embedder's files were found .*`bash scripts\/setup embedders`.*`npm install @memdoc\/static`.*\n$/);
  const asked = both(english, ["where is the data in PostgreSQL", "--embedder", "minilm"], { MEMDOC_MODELS: empty });
  assert.match(asked.stderr, /^memdoc: recalled by words only: the files of the minilm embedder were not found /);
  const unknown = both(english, ["x", "--embedder", "openai"]);
  assert.equal(unknown.status, 2);
});

test("the npm bin installed elsewhere: the static table of @memdoc/static, or the hint without it", () => {
  const install = mkdtempSync(join(work, "install-"));
  cpSync(pkgDir, join(install, "node_modules", "memdoc"), { recursive: true });
  const bin = [process.execPath, join(install, "node_modules", "memdoc", "cli.js")];
  writeFileSync(join(install, "M.md"), english);
  const ask = () => run(bin, ["recall", "M.md", "which relational database do we run", "--explain"], { cwd: install, env: { MEMDOC_MODELS: undefined } });
  const without = ask();
  assert.match(without.stderr, /^memdoc: recalled by words only: no embedder's files were found /);
  assert.ok(without.stdout.endsWith("\n# by words only\n"), without.stdout);
  mkdirSync(join(install, "node_modules", "@memdoc"));
  symlinkSync(realpathSync(join(root, "node_modules", "@memdoc", "static")), join(install, "node_modules", "@memdoc", "static"));
  const packaged = ask();
  assert.equal(packaged.stderr, "");
  assert.equal(embedderOf(packaged.stdout), STATIC);
  assert.equal(best(packaged.stdout)[0], "Services store their data in PostgreSQL 16");
});
