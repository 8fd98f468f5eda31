// memdoc's static embedder in real workerd: fixtures/worker-static.mjs is
// bundled by wrangler as a user's Worker would be, the table and tokenizer
// uploaded as Data modules and the embedders' .wasm as a compiled module,
// and runs in workerd through Miniflare. Its vectors are Node's for the same
// texts (the independent computation's, test-js/static-reference.mjs), and
// its hybridRecall gives Node's result, by meaning.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { hybridRecall } from "memdoc";
import { staticEmbedder } from "memdoc/embedders/static";
import { Miniflare } from "miniflare";

import { root } from "../helpers.mjs";
import { cosine, staticReference } from "../static-reference.mjs";

const compatibilityDate = "2025-01-01";
const work = mkdtempSync(join(tmpdir(), "memdoc-workerd-static-"));
let mf;

before(async () => {
  const config = {
    name: "memdoc-static-test",
    main: join(root, "test-js", "runtimes", "fixtures", "worker-static.mjs"),
    compatibility_date: compatibilityDate,
    rules: [{ type: "Data", globs: ["**/*.i8", "**/tokenizer.json"], fallthrough: true }],
  };
  writeFileSync(join(work, "wrangler.json"), JSON.stringify(config, null, 2));
  const built = spawnSync(
    join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", join(work, "out"), "--config", join(work, "wrangler.json")],
    { cwd: work, encoding: "utf8", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: join(work, "logs") } },
  );
  assert.equal(built.status, 0, `wrangler failed (${built.error?.message ?? built.status}):\n${built.stdout}\n${built.stderr}`);
  console.log(`wrangler bundle with the static table: ${built.stdout.match(/Total Upload: .*/)?.[0]}`);
  const out = readdirSync(join(work, "out"));
  for (const file of ["all-MiniLM-L6-v2-static-256.i8", "tokenizer.json", "minilm_bg.wasm"]) {
    assert.ok(out.some((f) => f.endsWith(file)), `${file} should be a module of the upload: ${out}`);
  }
  mf = new Miniflare({
    modules: true,
    scriptPath: join(work, "out", "worker-static.js"),
    modulesRoot: join(work, "out"),
    modulesRules: [
      { type: "ESModule", include: ["**/*.js"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
      { type: "Data", include: ["**/*.i8", "**/*.json"] },
    ],
    compatibilityDate,
  });
  await mf.ready;
});

after(async () => {
  try {
    await mf?.dispose();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

const MEMORY = [
  "## Architecture",
  "- Services use PostgreSQL 16",
  "- The frontend is a React single-page app",
  "## Process",
  "- Production releases only ship on Tuesdays and Thursdays",
  "- Every change needs one approving review",
].join("\n");
const QUESTION = "which relational database do we run?";
const OPTIONS = { scope: "team", budget: 400, today: "2025-06-01" };

test("the static embedder in workerd: Node's vectors, and hybridRecall by meaning as in Node", { timeout: 120_000 }, async () => {
  const reference = staticReference();
  const texts = reference.map((c) => c.text);
  const response = await mf.dispatchFetch("http://memdoc.test/", { method: "POST", body: JSON.stringify({ texts, memory: MEMORY, question: QUESTION, options: OPTIONS }) });
  const got = await response.json();
  assert.equal(response.status, 200, JSON.stringify(got));
  assert.equal(got.id, "all-MiniLM-L6-v2-static-256");
  assert.equal(got.dimensions, 256);

  const node = await staticEmbedder();
  const inNode = await node.embed(texts, "document");
  let worstNode = 0;
  let worstReference = 1;
  got.vectors.forEach((v, i) => {
    assert.equal(v.length, 256);
    worstNode = Math.max(worstNode, ...v.map((x, d) => Math.abs(x - inNode[i][d])));
    worstReference = Math.min(worstReference, cosine(v, reference[i].vector));
  });
  console.log(`workerd static: ${texts.length} texts, largest difference from Node ${worstNode.toExponential(2)}, worst cosine against the independent computation ${worstReference.toFixed(7)}`);
  assert.ok(worstNode <= 1e-6, `largest difference from Node ${worstNode}`);
  assert.ok(worstReference >= 0.99999, `worst cosine ${worstReference}`);

  // The question shares no word with its answer: found by meaning, as in Node.
  assert.deepEqual(got.recalled.semantic, { model: "all-MiniLM-L6-v2-static-256", degraded: null });
  assert.match(got.recalled.selected[0].text, /PostgreSQL 16/, JSON.stringify(got.recalled));
  assert.ok(got.recalled.selected[0].why.semantic.raw > 0, JSON.stringify(got.recalled.selected[0].why));
  assert.deepEqual(got.recalled, await hybridRecall(MEMORY, QUESTION, { ...OPTIONS, embedder: node }));
});
