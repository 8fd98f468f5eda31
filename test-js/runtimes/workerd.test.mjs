// memdoc in real workerd: fixtures/worker.mjs is bundled by wrangler exactly
// as a user's Worker would be (`wrangler deploy --dry-run --outdir`, which
// resolves the package's `workerd` export condition and uploads the .wasm as
// a compiled module), then the bundle runs in workerd through Miniflare with a
// KV namespace and a SQLite-backed Durable Object. Nothing is mocked.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import * as memdoc from "memdoc";
import { Miniflare } from "miniflare";

import { casesPath, pkgDir, root } from "../helpers.mjs";
import { probe } from "./engine-probe.mjs";
import { MODULE_RULES, bundle, stop } from "./wrangler-bundle.mjs";

const compatibilityDate = "2025-01-01";
const work = mkdtempSync(join(tmpdir(), "memdoc-workerd-"));
let mf;

before(async () => {
  const config = {
    name: "memdoc-runtime-test",
    main: join(root, "test-js", "runtimes", "fixtures", "worker.mjs"),
    compatibility_date: compatibilityDate,
    kv_namespaces: [{ binding: "KV", id: "memdoc-test" }],
    durable_objects: { bindings: [{ name: "MEMORY", class_name: "MemoryObject" }] },
    migrations: [{ tag: "v1", new_sqlite_classes: ["MemoryObject"] }],
  };
  const { upload, ms } = bundle(work, config);
  console.log(`wrangler bundle (${ms} ms): ${upload}`);

  const out = readdirSync(join(work, "out"));
  assert.ok(out.includes("worker.js") && out.some((f) => f.endsWith(".wasm")), `bundle files: ${out}`);
  const script = readFileSync(join(work, "out", "worker.js"), "utf8");
  assert.match(script, /pkg\/workerd\.js/, "wrangler should pick the workerd entry");

  mf = new Miniflare({
    modules: true,
    scriptPath: join(work, "out", "worker.js"),
    modulesRoot: join(work, "out"),
    modulesRules: MODULE_RULES,
    compatibilityDate,
    kvNamespaces: ["KV"],
    durableObjects: { MEMORY: { className: "MemoryObject", useSQLite: true } },
  });
  await mf.ready;
});

after(() => stop(mf, work));

async function call(path, body) {
  const response = await mf.dispatchFetch(`http://memdoc.test${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  const text = await response.text();
  assert.equal(response.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}

test("the bundled Worker validates and renders like the Node build", { timeout: 60_000 }, async () => {
  const { cases } = JSON.parse(readFileSync(casesPath, "utf8"));
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const got = await call("/engine", { version, cases });
  assert.deepEqual(got.failures, []);
  assert.deepEqual(got.outputs, probe(memdoc, { version, cases }).outputs, "every conformance input gives what Node gives");
});

test("the Durable Object adapter meets the KvHost contract in workerd", { timeout: 60_000 }, async () => {
  assert.deepEqual(await call("/contract/do"), []);
});

test("the Workers KV adapter meets the KvHost contract (best effort) in workerd", { timeout: 60_000 }, async () => {
  assert.deepEqual(await call("/contract/kv"), []);
});

/**
 * 8 writers × 200 saves, all at once, each writer a series of requests of
 * `part` saves; then the verdict of ../concurrency.mjs over the stored memory.
 */
async function hammer(label, path, id) {
  const writers = 8;
  const saves = 200;
  const part = 50;
  const ref = { scope: "team", id };
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const acknowledged = [];
      let conflicts = 0;
      for (let from = 0; from < saves; from += part) {
        const got = await call(path, { ref, w, from, count: Math.min(part, saves - from) });
        acknowledged.push(...got.acknowledged);
        conflicts += got.conflicts;
      }
      return { acknowledged, conflicts };
    }),
  );
  const ms = Date.now() - started;
  const acknowledged = results.flatMap((r) => r.acknowledged);
  const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
  const got = await call("/concurrency/verdict", { ref, acknowledged });
  console.log(
    `workerd, ${label}: ${writers} writers × ${saves} saves: ${acknowledged.length} acknowledged, ${conflicts} conflicts retried, ` +
      `final revision ${got.revision}, ${got.chars} chars, ${ms} ms`,
  );
  assert.deepEqual(got.failures, []);
  assert.equal(acknowledged.length, writers * saves);
  assert.equal(got.revision, writers * saves);
  return { conflicts };
}

// The adapter's own pattern: the writers run inside the Durable Object. Its
// input gates let each load-and-save finish before another request's storage
// calls resume, so conflicts are rare there; the verdict is what counts.
test("8 writers × 200 saves through MemoryStore inside the Durable Object lose nothing", { timeout: 900_000 }, async () => {
  await hammer("writers inside the Durable Object", "/concurrency/write", "inside");
});

// Writers in concurrent Worker requests, each get and put an RPC to the
// Durable Object: they do race, and the adapter's transaction decides.
test("8 writers × 200 saves in concurrent Worker requests, racing through the Durable Object, lose nothing", { timeout: 900_000 }, async () => {
  const { conflicts } = await hammer("writers in Worker requests, host over RPC", "/concurrency/write-from-worker", "from-worker");
  assert.ok(conflicts > 0, "writers in concurrent requests should have raced at least once");
});
