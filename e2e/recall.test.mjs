// Browser tests of the recall panel: a question typed in the panel marks
// the selected entries in the text (the engine's ranges), lists them with
// their `why` and the omitted ones with their reason; a question the memory
// does not answer selects nothing; and "by meaning" in the browser store
// loads the real static embedder (its table, tokenizer and .wasm) from the
// page's own origin, once, when first asked, and finds an entry that shares
// no word with the question; a memory mostly in Chinese loads
// multilingual-e5-small instead (its model file served beside the page, as
// `npm start` serves the copy `bash scripts/setup` fetched), which answers a
// Chinese question in other words and an English one.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startBrowser, byTestId, setText, saveArtifactsDir } from "./harness.mjs";
import { ask, best, byMeaning, markedLines } from "./recall-page.mjs";

const MEMORY = [
  "## Decisions",
  "- 2025-03-01: Services use PostgreSQL 16",
  "- 2025-03-02: Production releases only ship on Tuesdays and Thursdays",
  "- 2025-03-03: The billing service is written in Go",
  "",
  "## Facts",
  "- 2025-03-04: The office is in Oslo",
  "- 2025-03-05: Billing invoices go out on the first of the month",
].join("\n");

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

test("a question marks the entries recall selects, with their why, and lists the omitted ones with their reason", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "recall-words" });
  await setText(page, MEMORY);
  await byTestId(page, "recall-panel").locator("> summary").click();
  assert.equal(await byTestId(page, "recall-words").isChecked(), true, "by words is the default");

  const status = await ask(page, "billing?");
  assert.match(status, /^2 of 5 items, \d+ of 1,200 characters \(about \d+ tokens\), by words\.$/);
  assert.equal(await byTestId(page, "recall-status").getAttribute("data-status"), "done");
  assert.deepEqual(await markedLines(page), [
    "- 2025-03-03: The billing service is written in Go",
    "- 2025-03-05: Billing invoices go out on the first of the month",
  ]);
  // Hovering a mark shows its why; the list says the same.
  const title = await page.locator(".cm-recalled").first().getAttribute("title");
  assert.match(title, /^relevance \d\.\d\d · words \d\.\d\d \(BM25 \d+\.\d\d\) · recency \d\.\d\d \(\d+ days old\) · priority \d\.\d\d \(\w+\) · matched: billing$/);
  const whys = await byTestId(page, "recall-why").allTextContents();
  assert.equal(whys.length, 2);
  assert.equal(whys[0], title);
  assert.deepEqual(await byTestId(page, "recall-selected-item").evaluateAll((items) => items.map((i) => i.dataset.line)), ["4", "8"]);
  const omitted = byTestId(page, "recall-omitted-item");
  assert.equal(await omitted.count(), 3);
  assert.deepEqual(await omitted.evaluateAll((items) => items.map((i) => i.dataset.reason)), ["no-match", "no-match", "no-match"]);
  assert.match(await omitted.first().textContent(), /Services use PostgreSQL 16.*no-match does not answer the question/);
  // Collapsed, one group per reason with its count.
  assert.equal(await page.locator("details.recall-omitted").evaluate((d) => d.open), false);
  assert.deepEqual(await byTestId(page, "recall-omitted-group").evaluateAll((groups) => groups.map((g) => [g.dataset.reason, g.querySelector("summary").textContent])),
    [["no-match", "no-match does not answer the question (3)"]]);

  // A smaller budget leaves the lower-scoring match out, for the budget.
  await byTestId(page, "recall-budget").fill("100");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="recall-selected-item"]').length === 1);
  assert.equal((await markedLines(page)).length, 1);
  assert.equal(await page.locator('[data-testid="recall-omitted-item"][data-reason="budget"]').count(), 1);

  // Activating a listed item selects its line in the editor.
  await byTestId(page, "recall-selected-item").first().press("Enter");
  const selected = await page.evaluate(() => getSelection().toString());
  assert.match(selected, /billing|Billing/);

  // A question the memory does not answer selects nothing, and marks nothing.
  await byTestId(page, "recall-budget").fill("1200");
  const none = await ask(page, "what is the weather on mars?");
  assert.match(none, /^0 of 5 items, 0 of 1,200 characters/);
  assert.equal(await page.locator(".cm-recalled").count(), 0);
  assert.equal(await byTestId(page, "recall-selected-empty").isVisible(), true);
  assert.deepEqual(await byTestId(page, "recall-omitted-item").evaluateAll((items) => items.map((i) => i.dataset.reason)),
    ["no-match", "no-match", "no-match", "no-match", "no-match"]);

  // Clearing the question clears the marks.
  await byTestId(page, "recall-question").fill("");
  await page.waitForFunction(() => document.querySelector('[data-testid="recall-status"]').dataset.status === "idle");
  assert.equal(await page.locator(".cm-recalled").count(), 0);
  assert.deepEqual(browser.external, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("by meaning in the browser store: the static table, loaded once on first use from the page's origin, finds what the question says in other words", { timeout: 240_000 }, async () => {
  const page = await browser.newPage({ id: "recall-meaning" });
  await setText(page, MEMORY);
  await byTestId(page, "recall-panel").locator("> summary").click();
  assert.equal(await ask(page, "which relational database do we run?").then((s) => s.startsWith("0 of 5 items")), true,
    "by words, nothing shares a word with the question");

  const requests = [];
  // What the page downloads (it only asks whether e5's model is served, by HEAD).
  page.on("request", (request) => request.method() === "GET" && requests.push(new URL(request.url()).pathname));
  assert.ok(!requests.some((p) => p.endsWith(".i8")));
  const status = await byMeaning(page);
  assert.equal(await byTestId(page, "recall-status").getAttribute("data-degraded"), "", status);
  assert.match(status, /by meaning \(all-MiniLM-L6-v2-static-256-v2\)\.$/);
  // The answer is marked in the text and ranks first, by meaning.
  assert.ok((await markedLines(page)).includes("- 2025-03-01: Services use PostgreSQL 16"));
  const top = await best(page);
  assert.equal(top.text, "Services use PostgreSQL 16");
  assert.match(top.why, /· meaning \d\.\d\d \(cosine 0\.\d\d\) ·/);
  assert.match(await page.locator(".cm-recalled").first().getAttribute("title"), /· meaning \d\.\d\d \(cosine 0\.\d\d\) ·/);
  // The table is fetched when by meaning is first chosen, and MiniLM's weights and e5's model never.
  const fetched = () => requests.filter((p) => p.endsWith(".i8") || p.endsWith(".safetensors") || p.endsWith(".bin"));
  assert.equal(fetched().length, 1, fetched().join(", "));
  assert.match(fetched()[0], /all-MiniLM-L6-v2-static-256.*\.i8$/);

  // Another question in other words: the loaded table answers it, fetched once.
  const again = await ask(page, "what days can we deploy?");
  assert.match(again, /by meaning \(all-MiniLM-L6-v2-static-256-v2\)\.$/);
  assert.ok((await markedLines(page)).includes("- 2025-03-02: Production releases only ship on Tuesdays and Thursdays"));
  assert.equal((await best(page)).text, "Production releases only ship on Tuesdays and Thursdays");
  assert.equal(fetched().length, 1, "the table is loaded once");

  const dir = await saveArtifactsDir();
  await page.screenshot({ path: join(dir, "recall.png"), fullPage: true });
  assert.deepEqual(browser.external, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

const CHINESE = [
  "## 工程决策",
  "- 2024-12-31: 所有后端服务的主库是 PostgreSQL 16",
  "- 2024-11-28: 内部服务之间用 gRPC 调用，对外接口保持 JSON over HTTPS",
  "- 2024-06-11: 日志发到 Loki，保留三十天",
  "",
  "## 约定",
  "- 2025-01-15: 生产环境只在周二和周四发版",
  "- 2024-08-05: 代码合并前至少需要两位同事批准",
].join("\n");

test("by meaning over a memory mostly in Chinese: multilingual-e5-small, loaded from the page's origin, answers in other words and across languages", { timeout: 400_000 }, async () => {
  const page = await browser.newPage({ id: "recall-meaning-e5" });
  await setText(page, CHINESE);
  await byTestId(page, "recall-panel").locator("> summary").click();
  await ask(page, "我们的关系型数据库选的是什么？");
  const requests = [];
  page.on("request", (request) => request.method() === "GET" && requests.push(new URL(request.url()).pathname));
  // The panel says which model it loads, and why.
  await byTestId(page, "recall-meaning").check();
  await page.waitForFunction(() => document.querySelector('[data-testid="recall-status"]').dataset.status === "loading");
  assert.equal(await byTestId(page, "recall-status").textContent(),
    "Loading the multilingual-e5-small-q4 model (72 MB, once): the memory or the question is mostly not in Latin letters…");
  await page.waitForFunction(() => ["done", "degraded", "error"].includes(document.querySelector('[data-testid="recall-status"]').dataset.status),
    null, { timeout: 300_000, polling: 250 });
  const status = await byTestId(page, "recall-status").textContent();
  assert.equal(await byTestId(page, "recall-status").getAttribute("data-degraded"), "", status);
  assert.match(status, /by meaning \(multilingual-e5-small-q4\)\.$/);
  assert.equal((await best(page)).text, "所有后端服务的主库是 PostgreSQL 16");
  assert.ok((await markedLines(page)).includes("- 2024-12-31: 所有后端服务的主库是 PostgreSQL 16"));
  // The model file from this page's origin, once; neither MiniLM's weights nor the static table.
  const fetched = () => requests.filter((p) => p.endsWith(".i8") || p.endsWith(".safetensors") || p.endsWith(".bin"));
  assert.deepEqual(fetched(), ["/models/e5-small-q4.bin"]);

  // An English question about the Chinese memory: the loaded model answers it.
  const across = await ask(page, "on which weekdays can we release to production?");
  assert.match(across, /by meaning \(multilingual-e5-small-q4\)\.$/);
  assert.equal((await best(page)).text, "生产环境只在周二和周四发版");
  assert.equal(fetched().length, 1, "the model is loaded once");
  assert.deepEqual(browser.external, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});
