// memdoc in real Deno (the `deno` binary of the npm package `deno`):
// fixtures/deno-probe.mjs imports the package as a Deno user would, resolved
// from node_modules through the `deno` export condition, and runs the KvHost
// contract against Deno KV on disk. Deno gets only the permissions it needs:
// read the .wasm it loads, read and write its KV directory.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import * as memdoc from "memdoc";

import { casesPath, minilmDir, pkgDir, root, staticDir } from "../helpers.mjs";
import { probe } from "./engine-probe.mjs";

const deno = join(root, "node_modules", ".bin", "deno");
const work = mkdtempSync(join(tmpdir(), "memdoc-deno-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** Run a fixture in Deno with `request` on stdin (`reads`: more paths it may read); resolve with its JSON answer. */
function runDeno(script, request, extraArgs = [], reads = []) {
  const wasm = realpathSync(join(pkgDir, "memdoc_bg.wasm"));
  const args = [
    "run",
    "--no-prompt",
    "--no-lock",
    "--unstable-kv",
    `--allow-read=${[wasm, work, ...reads].join(",")}`,
    `--allow-write=${work}`,
    ...extraArgs,
    join(root, "test-js", "runtimes", "fixtures", script),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(deno, args, { cwd: root, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => {
      if (status !== 0) reject(new Error(`deno ${script} exited with ${status}:\n${stderr}\n${stdout}`));
      else {
        try {
          resolve(JSON.parse(stdout));
        } catch (error) {
          reject(new Error(`deno ${script} printed no JSON:\n${stdout}\n${stderr}`, { cause: error }));
        }
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}

test("Deno loads the package through the deno condition; engine and Deno KV contract", { timeout: 60_000 }, async () => {
  const { cases } = JSON.parse(readFileSync(casesPath, "utf8"));
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const started = Date.now();
  const got = await runDeno("deno-probe.mjs", { version, cases, kvPath: join(work, "contract.sqlite") });
  console.log(`deno probe: ${Date.now() - started} ms`);
  assert.deepEqual(got.engine.failures, []);
  assert.deepEqual(got.engine.outputs, probe(memdoc, { version, cases }).outputs, "every conformance input gives what Node gives");
  assert.deepEqual(got.contract, []);
});

test("MiniLM in Deno: the packaged embedder finds its files and gives the reference's vectors", { timeout: 300_000 }, async () => {
  const reference = JSON.parse(readFileSync(join(root, "embedders", "minilm", "tests", "reference.json"), "utf8"));
  const started = Date.now();
  const got = await runDeno("deno-embedder.mjs", { embedder: "minilm", texts: reference.cases.map((c) => c.text) }, [], [
    realpathSync(join(pkgDir, "embedders", "minilm")),
    realpathSync(minilmDir),
  ]);
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const worst = Math.min(...got.vectors.map((v, i) => dot(v, reference.cases[i].vector) / Math.sqrt(dot(v, v) * dot(reference.cases[i].vector, reference.cases[i].vector))));
  console.log(`deno minilm: ${Date.now() - started} ms, worst cosine ${worst.toFixed(7)} over ${got.vectors.length} texts`);
  assert.equal(got.id, "all-MiniLM-L6-v2");
  assert.equal(got.dimensions, 384);
  assert.equal(got.same, true, "loaded once");
  assert.equal(got.vectors.length, reference.cases.length);
  assert.ok(worst >= 0.99, `worst cosine ${worst}`);
});

test("the static table in Deno: the packaged embedder finds its files and gives the independent computation's vectors", { timeout: 300_000 }, async () => {
  const { cosine, staticReference } = await import("../static-reference.mjs");
  const reference = staticReference();
  const got = await runDeno("deno-embedder.mjs", { embedder: "static", texts: reference.map((c) => c.text) }, [], [
    realpathSync(join(pkgDir, "embedders", "minilm")),
    realpathSync(staticDir),
  ]);
  const worst = Math.min(...got.vectors.map((v, i) => cosine(v, reference[i].vector)));
  console.log(`deno static: worst cosine ${worst.toFixed(7)} over ${got.vectors.length} texts`);
  assert.equal(got.id, "all-MiniLM-L6-v2-static-256-v2");
  assert.equal(got.dimensions, 256);
  assert.equal(got.same, true, "loaded once");
  assert.equal(got.vectors.length, reference.length);
  assert.ok(worst >= 0.99999, `worst cosine ${worst}`);
});

test("8 writers × 200 saves through MemoryStore on Deno KV lose nothing", { timeout: 900_000 }, async () => {
  const writers = 8;
  const saves = 200;
  const got = await runDeno("deno-concurrency.mjs", { kvPath: join(work, "concurrency.sqlite"), writers, saves });
  console.log(
    `Deno KV: ${writers} writers × ${saves} saves: ${got.acknowledged} acknowledged, ${got.conflicts} conflicts retried, ` +
      `final revision ${got.revision}, ${got.chars} chars, ${got.ms} ms`,
  );
  assert.deepEqual(got.failures, []);
  assert.equal(got.acknowledged, writers * saves);
  assert.equal(got.revision, writers * saves);
});

test("deno check accepts a TypeScript consumer of the package and its adapters", { timeout: 120_000 }, () => {
  const checked = spawnSync(deno, ["check", "--no-lock", "--unstable-kv", join(root, "test-js", "runtimes", "fixtures", "deno-types.ts")], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(checked.status, 0, `deno check failed (${checked.error?.message ?? checked.status}):\n${checked.stderr}${checked.stdout}`);
});
