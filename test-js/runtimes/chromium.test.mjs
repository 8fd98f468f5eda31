// memdoc in real Chromium (Debian's /usr/bin/chromium through
// playwright-core): a page served from 127.0.0.1 loads the package without a
// bundler, through an import map to its files, awaits init(), checks the
// engine, runs the KvHost contract against localStorage (with real Web
// Locks) and IndexedDB, races writers within a page (localStorage) and across
// pages (IndexedDB), and saves a large memory many times to check that old
// snapshots are pruned; the MiniLM and static embedders find their files at
// the packages' URLs (memdoc's, and @memdoc/minilm's and @memdoc/static's). The browser is closed whatever happens.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, sep } from "node:path";
import { after, before, test } from "node:test";

import * as memdoc from "memdoc";
import { chromium } from "playwright-core";

import { casesPath, minilmDir, pkgDir, root, staticDir } from "../helpers.mjs";
import { cosine, staticReference } from "../static-reference.mjs";
import { probe } from "./engine-probe.mjs";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".safetensors": "application/octet-stream",
  ".i8": "application/octet-stream",
};
// Only the packages (memdoc and the embedders' own) and the test files are served.
const served = [realpathSync(pkgDir), realpathSync(minilmDir), realpathSync(staticDir), join(root, "test-js")];

function serve(request, response) {
  const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
  let file = null;
  try {
    const mapped = path.startsWith("/node_modules/memdoc/") ? join(root, "node_modules", "memdoc", path.slice(21)) : join(root, path);
    const real = realpathSync(mapped);
    if (served.some((dir) => real.startsWith(dir + sep)) && types[extname(real)]) file = real;
  } catch {
    // missing: 404 below
  }
  if (!file) {
    response.writeHead(404).end("not found");
    return;
  }
  response.writeHead(200, { "content-type": types[extname(file)], "cache-control": "no-store" }).end(readFileSync(file));
}

const profile = mkdtempSync(join(tmpdir(), "memdoc-chromium-"));
let server;
let context;
let origin;
const pageErrors = [];

async function openPage() {
  pageErrors.length = 0;
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(`${origin}/test-js/runtimes/fixtures/page.html`);
  await page.waitForFunction(() => document.title === "ready", null, { timeout: 20_000 });
  return page;
}

before(async () => {
  server = createServer(serve);
  await new Promise((resolve, reject) => server.listen(0, "127.0.0.1", resolve).on("error", reject));
  origin = `http://127.0.0.1:${server.address().port}`;
  const started = Date.now();
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  console.log(`chromium ${context.browser()?.version() ?? ""} started in ${Date.now() - started} ms`);
});

after(async () => {
  try {
    await context?.close();
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    rmSync(profile, { recursive: true, force: true });
  }
});

test("a page without a bundler awaits init(), then validates and renders like the Node build", { timeout: 60_000 }, async () => {
  const page = await openPage();
  const { cases } = JSON.parse(readFileSync(casesPath, "utf8"));
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const early = await page.evaluate(() => window.memdocTest.early);
  assert.ok(early, "calling the engine before init() should throw");
  const got = await page.evaluate((request) => window.memdocTest.probe(request), { version, cases });
  assert.deepEqual(got.failures, []);
  assert.deepEqual(got.outputs, probe(memdoc, { version, cases }).outputs, "every conformance input gives what Node gives");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("MiniLM in a page: the embedder fetches its module, weights and tokenizer from the packages' URLs", { timeout: 180_000 }, async () => {
  const page = await openPage();
  const reference = JSON.parse(readFileSync(join(root, "embedders", "minilm", "tests", "reference.json"), "utf8"));
  const started = Date.now();
  const got = await page.evaluate(async (texts) => {
    const { miniLmEmbedder } = await import("/node_modules/memdoc/embedders/minilm.js");
    const embedder = await miniLmEmbedder();
    const vectors = await embedder.embed(texts, "document");
    return { id: embedder.id, same: (await miniLmEmbedder()) === embedder, vectors: vectors.map((v) => Array.from(v)) };
  }, reference.cases.map((c) => c.text));
  const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
  const cosines = got.vectors.map((v, i) => dot(v, reference.cases[i].vector) / Math.sqrt(dot(v, v) * dot(reference.cases[i].vector, reference.cases[i].vector)));
  console.log(`chromium minilm: ${Date.now() - started} ms, worst cosine ${Math.min(...cosines).toFixed(7)} over ${cosines.length} texts`);
  assert.equal(got.id, "all-MiniLM-L6-v2");
  assert.equal(got.same, true, "loaded once");
  assert.equal(cosines.length, reference.cases.length);
  assert.ok(Math.min(...cosines) >= 0.99);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("the static table in a page: the embedder fetches its table, tokenizer and module from the packages' URLs, and hybridRecall finds by meaning", { timeout: 120_000 }, async () => {
  const page = await openPage();
  const reference = staticReference();
  const got = await page.evaluate(async (texts) => {
    const { staticEmbedder } = await import("/node_modules/memdoc/embedders/static.js");
    const { hybridRecall } = await import("memdoc");
    const embedder = await staticEmbedder();
    const vectors = await embedder.embed(texts, "document");
    const memory = "## Architecture\n- Services use PostgreSQL 16\n- The frontend is a React single-page app\n## Process\n- Production releases only ship on Tuesdays and Thursdays";
    const recalled = await hybridRecall(memory, "which relational database do we run?", { scope: "team", budget: 400, today: "2025-06-01", embedder });
    return { id: embedder.id, same: (await staticEmbedder()) === embedder, vectors: vectors.map((v) => Array.from(v)), recalled };
  }, reference.map((c) => c.text));
  const worst = Math.min(...got.vectors.map((v, i) => cosine(v, reference[i].vector)));
  console.log(`chromium static: worst cosine against the independent computation ${worst.toFixed(7)} over ${reference.length} texts`);
  assert.equal(got.id, "all-MiniLM-L6-v2-static-256-v2");
  assert.equal(got.same, true, "loaded once");
  assert.ok(worst >= 0.99999, `worst cosine ${worst}`);
  assert.deepEqual(got.recalled.semantic, { model: "all-MiniLM-L6-v2-static-256-v2", degraded: null });
  const top = got.recalled.selected.reduce((a, b) => (b.why.relevance > a.why.relevance ? b : a));
  assert.match(top.text, /^- Services use PostgreSQL 16$/);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("localStorageHost meets the KvHost contract with real Web Locks", { timeout: 60_000 }, async () => {
  const page = await openPage();
  const got = await page.evaluate(() => window.memdocTest.contract());
  assert.equal(got.isSecureContext, true, "127.0.0.1 is a secure context");
  assert.equal(got.webLocks, true, "navigator.locks should exist, so puts take a lock");
  assert.deepEqual(got.failures, []);
  assert.deepEqual(got.stored, ["contract/1/memdoc/team/contract"], "the contract's key should be in the page's real localStorage");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("MemoryStore over localStorage: two pages of one browser see each other's saves and conflicts", { timeout: 120_000 }, async () => {
  const a = await openPage();
  const b = await openPage();
  const ref = { scope: "team", id: "two-pages" };
  const first = "## Team Conventions\n- 2025-01-01: Standups on Mondays";
  const second = `${first}\n- 2025-01-02: Reviews within a day`;
  const fromB = `${first}\n- 2025-01-03: Demos on Fridays`;

  assert.equal((await a.evaluate((r) => window.memdocTest.load(r), ref)).revision, 0);
  const saved = await a.evaluate(([r, t]) => window.memdocTest.save(r, t, { baseRevision: 0, actor: "page-a" }), [ref, first]);
  assert.equal(saved.status, "saved");
  assert.equal(saved.revision, 1);

  assert.ok(await b.evaluate((r) => window.memdocTest.waitForRevision(r, 1), ref), "page B should see page A's save");
  const seen = await b.evaluate((r) => window.memdocTest.load(r), ref);
  assert.equal(seen.revision, 1, "page B reads page A's save");
  assert.equal(seen.content, first);
  assert.equal(seen.updatedBy, "page-a");

  assert.equal((await a.evaluate(([r, t]) => window.memdocTest.save(r, t, { baseRevision: 1, actor: "page-a" }), [ref, second])).status, "saved");
  assert.ok(await b.evaluate((r) => window.memdocTest.waitForRevision(r, 2), ref));
  const late = await b.evaluate(([r, t]) => window.memdocTest.save(r, t, { baseRevision: 1, actor: "page-b" }), [ref, fromB]);
  assert.equal(late.status, "conflict", "page B edited revision 1, which page A replaced");
  assert.equal(late.revision, 2);
  assert.equal((await b.evaluate((r) => window.memdocTest.load(r), ref)).content, second, "the conflict overwrote nothing");

  const retried = `${second}\n- 2025-01-03: Demos on Fridays`;
  const again = await b.evaluate(([r, t]) => window.memdocTest.save(r, t, { baseRevision: 2, actor: "page-b" }), [ref, retried]);
  assert.equal(again.status, "saved");
  assert.equal(again.revision, 3);
  assert.ok(await a.evaluate((r) => window.memdocTest.waitForRevision(r, 3), ref));
  const back = await a.evaluate((r) => window.memdocTest.load(r), ref);
  assert.equal(back.content, retried);
  assert.equal(back.revision, 3);
  const history = await a.evaluate((r) => window.memdocTest.history(r), ref);
  assert.deepEqual(history.map((h) => [h.revision, h.actor]), [[3, "page-b"], [2, "page-a"], [1, "page-a"]]);

  assert.deepEqual(pageErrors, []);
  await a.close();
  await b.close();
});

// Within one page, compare-and-swap over localStorage is exact: concurrent
// writers there lose nothing. Not across pages: Chromium gives each renderer
// its own copy of localStorage and brings other pages' writes in
// asynchronously, so a read inside a Web Lock can still miss the write made
// just before the lock was released (two pages racing 2 × 25 saves lost 2
// acknowledged saves; 2 × 500 locked counter increments ended at 810).
test("MemoryStore over localStorage: 8 concurrent writers in one page lose nothing", { timeout: 300_000 }, async () => {
  const page = await openPage();
  const ref = { scope: "team", id: "one-page-race" };
  const writers = 8;
  const saves = 25;
  const started = Date.now();
  const results = await page.evaluate(
    ([r, ids, n]) => window.memdocTest.writers(r, ids, 0, n),
    [ref, Array.from({ length: writers }, (_, w) => w), saves],
  );
  const acknowledged = results.flatMap((r) => r.acknowledged);
  const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
  const verdict = await page.evaluate(([r, ack]) => window.memdocTest.verdict(r, ack), [ref, acknowledged]);
  console.log(
    `chromium localStorage, one page: ${writers} writers × ${saves} saves: ${acknowledged.length} acknowledged, ` +
      `${conflicts} conflicts retried, final revision ${verdict.revision}, ${Date.now() - started} ms`,
  );
  assert.deepEqual(verdict.failures, []);
  assert.equal(verdict.revision, writers * saves);
  assert.ok(conflicts > 0, "the writers should have raced");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// Before pruning, a 20,709-character memory filled localStorage after 239
// saves (every later save failed with QuotaExceededError): the snapshots of
// revisions that had left the history were never removed.
test("400 saves of a 20,000-character memory through localStorage stay within the quota", { timeout: 300_000 }, async () => {
  const page = await openPage();
  const saves = 400;
  const got = await page.evaluate(([n]) => window.memdocTest.manyLargeSaves("large", 20_000, n), [saves]);
  console.log(
    `chromium localStorage: ${saves} saves of ${got.chars} characters in ${got.ms} ms; ` +
      `${got.keys} keys, ${got.storedChars} characters stored at the end`,
  );
  assert.equal(got.failedAt, null, `save ${got.failedAt} failed: ${JSON.stringify(got)}`);
  assert.ok(got.chars >= 19_900 && got.chars <= 20_100, `the memory is about 20,000 characters (${got.chars})`);
  assert.equal(got.revision, saves);
  assert.equal(got.keys, 1 + 20, "the head and historyDepth (20) snapshots");
  assert.ok(got.kept?.includes(`save number ${saves - 19}`), "the oldest kept revision reads back");
  assert.equal(got.pruned, null, "a pruned revision is older than the kept history");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("indexedDbHost meets the KvHost contract; foreign values are errors", { timeout: 60_000 }, async () => {
  const page = await openPage();
  const got = await page.evaluate(() => window.memdocTest.idbContract());
  assert.deepEqual(got.failures, []);
  for (const [call, message] of Object.entries(got.errors)) {
    assert.match(message, /is not a memdoc record/, `${call} should reject, not read as absent`);
  }
  assert.equal(Object.keys(got.errors).length, 4);
  assert.equal(got.storeError, "store/corrupt-record", "a bad head through the adapter is corrupt, never empty");
  assert.equal(got.shared, true, "an existing database without the store gets it added");
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// IndexedDB serialises readwrite transactions across every connection of the
// origin, so compare-and-swap holds across pages, where localStorage's does
// not (see above).
test("MemoryStore over IndexedDB: writers in two pages lose nothing", { timeout: 300_000 }, async () => {
  const pages = [await openPage(), await openPage()];
  const name = `race-${Date.now()}`;
  const ref = { scope: "team", id: "two-page-race" };
  const perPage = 4;
  const saves = 25;
  const started = Date.now();
  const runs = await Promise.all(
    pages.map((page, p) =>
      page.evaluate(
        ([db, r, ids, n]) => window.memdocTest.idbWriters(db, r, ids, 0, n),
        [name, ref, Array.from({ length: perPage }, (_, w) => p * perPage + w), saves],
      ),
    ),
  );
  const results = runs.flatMap((r) => r.results);
  const acknowledged = results.flatMap((r) => r.acknowledged);
  const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
  const verdict = await pages[0].evaluate(([db, r, ack]) => window.memdocTest.idbVerdict(db, r, ack), [name, ref, acknowledged]);
  console.log(
    `chromium IndexedDB, two pages: ${pages.length} × ${perPage} writers × ${saves} saves: ${acknowledged.length} acknowledged, ` +
      `${conflicts} conflicts retried, final revision ${verdict.revision}, ${Date.now() - started} ms ` +
      `(pages: ${runs.map((r) => `${r.ms} ms`).join(", ")})`,
  );
  assert.deepEqual(verdict.failures, []);
  assert.equal(acknowledged.length, pages.length * perPage * saves);
  assert.equal(verdict.revision, acknowledged.length, "final revision equals acknowledged saves");
  assert.ok(conflicts > 0, "the writers should have raced");
  const perPageConflicts = runs.map((r) => r.results.reduce((n, x) => n + x.conflicts, 0));
  assert.ok(perPageConflicts.every((c) => c > 0), `both pages should have met conflicts (${perPageConflicts})`);
  assert.deepEqual(pageErrors, []);
  for (const page of pages) await page.close();
});
