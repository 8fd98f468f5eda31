// Browser tests of the editing side of www/: the page starts offline from
// local files, validation marks the exact ranges in team scope, the meter
// counts code points and changes state at the limits, typing in a large
// document validates once per pause, and memory text never becomes HTML.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  startBrowser, byTestId, setText, typeAtEnd, typeKeys, editorText, openScope, validationCount,
  waitValidated, clickForOutcome, saveArtifactsDir, codePoints,
} from "./harness.mjs";

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

test("the page starts from local files only, with an empty memory and no problems", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "fresh" });
  assert.equal(await byTestId(page, "engine-error").isHidden(), true, "should start the engine");
  assert.match(await byTestId(page, "revision").textContent(), /^user · fresh · new memory/);
  assert.equal(await editorText(page), "", "should open an empty memory");
  assert.equal(await byTestId(page, "usage-chars").textContent(), "0");
  assert.equal(await byTestId(page, "usage").getAttribute("data-level"), "ok");
  assert.equal(await byTestId(page, "problem").count(), 0);
  assert.equal(await byTestId(page, "problems-empty").isVisible(), true);
  // Controls are real, labelled form controls.
  assert.equal(await page.getByRole("button", { name: "Save" }).count(), 1);
  assert.equal(await page.getByLabel("Memory id").inputValue(), "fresh");
  assert.equal(await page.getByRole("radio", { name: "Team" }).count(), 1);
  assert.equal(await byTestId(page, "save-outcome").getAttribute("aria-live"), "polite");
  // Every control has a name, and Tab walks from the form into the editor and on to Save.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll("button, input")]
    .filter((c) => !c.hidden && !(c.getAttribute("aria-label") || c.textContent.trim() || c.labels?.[0]?.textContent.trim()))
    .map((c) => c.outerHTML));
  assert.deepEqual(unnamed, []);
  await page.getByLabel("You are").focus();
  const order = [];
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press("Tab");
    order.push(await page.evaluate(() => document.activeElement.dataset.testid ?? document.activeElement.className));
  }
  assert.deepEqual(order, ["open", "editor-content", "save"]);
  assert.deepEqual(browser.external, [], "should make no request outside 127.0.0.1");
  assert.deepEqual(page.errors, [], "should log no errors");
  await page.close();
});

test("entry dates are marked where the engine reads an entry: not in a code fence, not an impossible date", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "dates-test" });
  await setText(page, [
    "## Facts",
    "- 2025-03-15: A real entry",
    "- 2025-02-30: An impossible date",
    "```",
    "- 2025-03-16: Inside a code fence",
    "```",
    "- (2025-03-17) [fact] A legacy entry",
  ].join("\n"));
  const marked = () => page.locator(".cm-entry-date").allTextContents();
  assert.deepEqual(await marked(), ["2025-03-15", "2025-03-17"]);
  // A new entry is marked by the next check; the fence still hides its own.
  await typeAtEnd(page, "\n- 2025-03-18: Typed later");
  assert.deepEqual(await marked(), ["2025-03-15", "2025-03-17", "2025-03-18"]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a problem that moves down the text is shown at its new line, and its button picks its new place", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "moving-problem" });
  await openScope(page, "team");
  await typeAtEnd(page, "## Product Decisions\n- 2025-03-15: Standups are on Mondays\n\n## Preferences\n- 2025-03-16: Alex likes dark mode");
  const problem = page.locator('[data-testid="problem"][data-code="scope/personal-heading"]');
  await problem.waitFor();
  assert.equal(await problem.getAttribute("data-line"), "4");

  // Two lines typed at the very start move the heading to line 6.
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+Home");
  await typeKeys(page, "## Intro\n- 2025-03-01: First\n");
  await page.waitForFunction(() => document.querySelector(
    '[data-testid="problem"][data-code="scope/personal-heading"]')?.dataset.line === "6");
  assert.equal(await byTestId(page, "problem").count(), 1);
  assert.match(await problem.textContent(), /line 6, col 1/);

  await problem.click();
  await page.waitForFunction(() => document.querySelector(".cm-activeLine")?.textContent === "## Preferences");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("team scope: a personal heading is an error on its line, in the gutter, on hover and in the list", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "scope-test" });
  await openScope(page, "team");
  await typeAtEnd(page, "## Product Decisions\n- 2025-03-15: Standups are on Mondays\n\n## Preferences\n- 2025-03-16: Alex likes dark mode");

  const problem = page.locator('[data-testid="problem"][data-code="scope/personal-heading"]');
  await problem.waitFor();
  assert.equal(await problem.getAttribute("data-severity"), "error");
  assert.equal(await problem.getAttribute("data-line"), "4", "should point at the heading's line");
  assert.match(await problem.textContent(), /line 4, col 1/);

  // The inline mark covers exactly the heading on line 4, and only there.
  const lines = page.locator(".cm-content .cm-line");
  await lines.nth(3).locator(".cm-lintRange-error").waitFor();
  assert.equal(await lines.nth(3).locator(".cm-lintRange-error").textContent(), "## Preferences");
  assert.equal(await lines.nth(0).locator(".cm-lintRange-error").count(), 0);
  // A gutter marker sits on line 4.
  const gutterRows = page.locator(".cm-gutter-lint .cm-gutterElement");
  const markerTops = await page.locator(".cm-gutter-lint .cm-lint-marker-error").evaluateAll(
    (ms) => ms.map((m) => Math.round(m.closest(".cm-gutterElement").getBoundingClientRect().top)));
  const lineTop = Math.round(await lines.nth(3).evaluate((l) => l.getBoundingClientRect().top));
  assert.ok(await gutterRows.count() > 0);
  assert.deepEqual(markerTops, [lineTop], "should have one error marker, level with line 4");

  // Hover shows the message and the help.
  await lines.nth(3).locator(".cm-lintRange-error").hover();
  const tooltip = page.locator(".cm-tooltip-lint");
  await tooltip.waitFor();
  const message = await problem.locator('[data-testid="problem-message"]').textContent();
  assert.ok((await tooltip.textContent()).includes(message), "the tooltip should carry the engine's message");
  assert.equal(await tooltip.locator(".lint-help").count(), 1, "the tooltip should carry the help");

  // Clicking the list item puts the cursor on that heading.
  await page.mouse.move(0, 0);
  await problem.click();
  await page.waitForFunction(() => document.querySelector(".cm-activeLine")?.textContent === "## Preferences");
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("cm-content")), true,
    "the editor should have the focus");

  // The same text in user scope has no scope error.
  await openScope(page, "user");
  await setText(page, "## Preferences\n- 2025-03-16: Alex likes dark mode");
  assert.equal(await page.locator('[data-testid="problem"][data-code="scope/personal-heading"]').count(), 0);
  assert.equal(await page.locator(".cm-lintRange-error").count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the problem list shows the error that blocks a save first, then the warnings, each in line order", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "problem-order" });
  await openScope(page, "team");
  await typeAtEnd(page, "Sure, here it is:\n## Decisions\n-  2025-03-15 Ship\n\n## Preferences\n- 2025-03-16: dark mode");
  await page.locator('[data-testid="problem"][data-code="scope/personal-heading"]').waitFor();
  const listed = await byTestId(page, "problem").evaluateAll((items) => items.map((b) => [b.dataset.severity, b.dataset.line]));
  assert.ok(listed.length >= 3, JSON.stringify(listed));
  assert.deepEqual(listed[0], ["error", "5"], JSON.stringify(listed));
  const warnings = listed.slice(1).filter(([severity]) => severity === "warning");
  assert.ok(warnings.length >= 2, JSON.stringify(listed));
  assert.deepEqual(warnings.map(([, line]) => Number(line)), warnings.map(([, line]) => Number(line)).sort((a, b) => a - b));
  await page.close();
});

test("the meter counts code points and shows ok, over soft and over hard", { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ id: "meter-test" });
  // Emoji count as one code point but two UTF-16 units and four UTF-8 bytes.
  const entry = "- 2025-03-15: remember 🎉 this\n";
  const head = "## Notes\n";
  const body = entry.repeat(Math.floor((17_990 - codePoints(head)) / codePoints(entry)));
  const doc = (head + body).trimEnd();
  await setText(page, doc);
  const chars = codePoints(doc);
  assert.ok(chars <= 18_000 && doc.length > 18_000, "the fixture straddles the limit only in UTF-16 units");
  assert.equal(await byTestId(page, "usage-chars").textContent(), chars.toLocaleString("en-US"));
  assert.equal(await byTestId(page, "usage-bytes").textContent(),
    Buffer.byteLength(doc, "utf8").toLocaleString("en-US"));
  assert.equal(await byTestId(page, "usage").getAttribute("data-level"), "ok");
  assert.match(await byTestId(page, "usage-state").textContent(), /within limits/);

  // Cross the soft limit by typing.
  const extra = `\n${entry.trimEnd()}`;
  await typeAtEnd(page, extra);
  assert.equal(await byTestId(page, "usage").getAttribute("data-level"), "soft");
  assert.match(await byTestId(page, "usage-state").textContent(), /over the soft limit/);
  assert.equal(await byTestId(page, "usage-chars").textContent(), codePoints(doc + extra).toLocaleString("en-US"));
  await page.locator('[data-testid="problem"][data-code="size/soft-limit"]').waitFor();

  // Over the hard limit it is an error.
  await setText(page, `${doc}\n${"- 2025-03-16: more\n".repeat(400)}`.trimEnd());
  assert.equal(await byTestId(page, "usage").getAttribute("data-level"), "hard");
  assert.match(await byTestId(page, "usage-state").textContent(), /over the hard limit/);
  const hard = page.locator('[data-testid="problem"][data-code="size/hard-limit"]');
  await hard.waitFor();
  assert.equal(await hard.getAttribute("data-severity"), "error");

  // Compaction brings it back under the soft limit, in the editor only, and
  // keeps the text before on the page.
  const overHard = await byTestId(page, "usage-chars").textContent();
  const before = await validationCount(page);
  await byTestId(page, "compact").click();
  await waitValidated(page, before);
  assert.equal(await byTestId(page, "usage").getAttribute("data-level"), "ok");
  assert.match(await byTestId(page, "save-outcome-title").textContent(), /^Compacted .* entries removed/);
  assert.equal(codePoints(await byTestId(page, "kept-text").textContent()).toLocaleString("en-US"), overHard);
  assert.equal(await byTestId(page, "compact").isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("typing in a 25,000-character memory: every key lands, and the check follows the text", { timeout: 120_000 }, async () => {
  // How fast (a check's time, key-to-paint, checks per burst of keys) is
  // measured by `npm run bench:editor`, never asserted here: a loaded
  // machine makes wall-clock budgets flaky.
  const page = await browser.newPage({ id: "perf-test" });
  const sections = [];
  let size = 0;
  for (let i = 0; size < 24_900; i += 1) {
    const section = `## Topic ${i}\n- 2025-03-15: A fact about topic ${i} that is worth remembering\n- 2025-03-16: Another detail, number ${i}`;
    sections.push(section);
    size += section.length + 2;
  }
  const doc = sections.join("\n\n").slice(0, 25_000);
  await setText(page, doc);
  assert.ok(doc.length >= 24_900);

  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  const before = await validationCount(page);
  const counted = Number((await byTestId(page, "usage-chars").textContent()).replace(/\D/g, ""));
  const typed = "\n- 2025-03-17: typed quickly into a big memory";
  await typeKeys(page, typed, { delay: 15 });
  await waitValidated(page, before);
  assert.ok((await page.locator(".cm-activeLine").textContent()).endsWith("typed quickly into a big memory"));
  // The last check is of the whole typed text: the meter counts it.
  const expected = counted + codePoints(typed);
  await page.waitForFunction((n) => document.querySelector('[data-testid="usage-chars"]')?.textContent.replace(/\D/g, "") === String(n), expected);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("memory text that looks like HTML is shown as text everywhere", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "xss-test", actor: "<img src=x onerror=window.__pwned=3>" });
  await page.evaluate(() => { window.__pwned = 0; });
  const hostile = [
    "<img src=x onerror=\"window.__pwned=1\"> Sure, here is the memory:",
    "## Notes <img src=x onerror=window.__pwned=2>",
    "- 2025-03-15: <script>window.__pwned=4</script> is not code",
    "- <b>undated</b> <img src=y onerror=window.__pwned=5>",
  ].join("\n");
  await setText(page, hostile);
  await byTestId(page, "preview-panel").locator("summary").click();
  await byTestId(page, "preview-canonical").waitFor();
  await page.locator('[data-testid="problem"][data-code="structure/preamble-dropped"]').waitFor();
  assert.match(await byTestId(page, "preview-dropped-lines").textContent(), /^<img src=x onerror="window.__pwned=1">/);
  assert.match(await byTestId(page, "preview-canonical").textContent(), /## Notes <img src=x onerror=window.__pwned=2>/);
  assert.match(await byTestId(page, "preview-block").textContent(), /<script>window.__pwned=4<\/script>/);

  assert.match(await clickForOutcome(page, "save", "saved"), /Saved: revision 1/);
  await byTestId(page, "history-panel").locator("summary").click();
  await byTestId(page, "history-view").first().click();
  assert.match(await byTestId(page, "revision-view-text").textContent(), /<script>window.__pwned=4<\/script>/);
  assert.equal(await page.locator('[data-testid="history-row"] td').nth(2).textContent(),
    "<img src=x onerror=window.__pwned=3>", "the actor name is text too");

  // Reload from storage and hover a mark: still text.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  assert.match(await editorText(page), /<script>window.__pwned=4<\/script>/);
  await page.waitForTimeout(400);
  assert.equal(await page.locator("img").count(), 0, "no img element may exist");
  assert.equal(await page.locator("body script:not([src])").count(), 0, "no inline script may exist");
  assert.equal(await page.evaluate(() => window.__pwned ?? 0), 0, "no handler may have run");
  assert.deepEqual(page.errors.filter((e) => !/favicon/.test(e)), []);
  await page.close();
});

test("screenshot of the editor with diagnostics", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "screenshot", scope: "team", actor: "alice" });
  await setText(page, [
    "Sure! Here is the updated memory:",
    "## Product Decisions",
    "- 2025-03-15: Weekly standup meetings happen on Mondays",
    "- 2025-13-01: a date that does not exist",
    "",
    "## Engineering Conventions",
    "- 2025-03-16: Services use PostgreSQL 16 🐘",
    "- (2024-11-02) [fact] legacy entries are read and re-written",
    "",
    "## Preferences",
    "- 2025-03-16: Alex likes dark mode",
  ].join("\n"));
  await byTestId(page, "preview-panel").locator("summary").click();
  await page.locator('[data-testid="problem"][data-code="scope/personal-heading"]').waitFor();
  const dir = await saveArtifactsDir();
  await page.screenshot({ path: join(dir, "editor.png"), fullPage: true });
  assert.ok(await byTestId(page, "problem").count() >= 3);
  await page.setViewportSize({ width: 420, height: 900 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `a narrow window should not scroll sideways (overflow ${overflow}px)`);
  await page.screenshot({ path: join(dir, "editor-narrow.png"), fullPage: true });
  await page.close();
});

test("in a narrow window the editor stays in place as the unsaved marker comes and goes", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "narrow-marker" });
  await page.setViewportSize({ width: 420, height: 900 });
  const editor = byTestId(page, "editor");
  const top = (await editor.boundingBox()).y;
  assert.equal(await byTestId(page, "dirty").isVisible(), false);
  await typeAtEnd(page, "## Notes\n- 2025-03-01: typed");
  assert.equal(await byTestId(page, "dirty").isVisible(), true);
  assert.equal((await editor.boundingBox()).y, top, "the marker's place was kept while it was hidden");
  await page.close();
});
