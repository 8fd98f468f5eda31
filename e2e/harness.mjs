// Shared set-up for the browser tests: serve the built editor (www/dist) on a
// free local port, drive Debian's Chromium through playwright-core in a fresh
// profile, and small helpers to type into CodeMirror and read the page.
// Every helper reads the DOM the person sees; nothing reaches into the app.

import { mkdtemp, rm, stat, readdir, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveEditor } from "../scripts/serve.mjs";

const repo = fileURLToPath(new URL("..", import.meta.url));
export const DIST = join(repo, "www", "dist");
export const ARTIFACTS = join(repo, "e2e", "artifacts");

const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

async function newestMtime(path) {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, name)));
  return newest;
}

/** Fail loudly when the page under test is missing or older than its sources. */
async function assertBuilt() {
  const built = await newestMtime(join(DIST, "index.html"));
  if (built === 0) throw new Error("www/dist is missing: run `npm run build` and `npm run build:www` first");
  const sources = Math.max(
    await newestMtime(join(repo, "www", "src")),
    await newestMtime(join(repo, "www", "index.html")),
    await newestMtime(join(repo, "pkg")),
  );
  if (sources > built) throw new Error("www/dist is older than www/ or pkg/: run `npm run build:www` again");
}

/**
 * Start the site and a browser. Returns `{ url, context, newPage(query), close() }`;
 * pages opened in one context share localStorage, like two tabs.
 */
export async function startBrowser() {
  await assertBuilt();
  const site = await serveEditor({ port: 0 });
  const profile = await mkdtemp(join(tmpdir(), "memdoc-e2e-"));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
  } catch (error) {
    await site.close();
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(15_000);
  const external = [];
  context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(site.url) && !url.startsWith("data:") && !url.startsWith("blob:")) external.push(url);
  });
  return {
    url: site.url,
    context,
    /** Requests that left 127.0.0.1 (the page must work offline). */
    external,
    /** Open the editor with URL parameters `query` and wait until it is ready. */
    async newPage(query = {}) {
      const page = await context.newPage();
      page.errors = [];
      page.on("pageerror", (error) => page.errors.push(String(error)));
      page.on("console", (message) => { if (message.type() === "error") page.errors.push(message.text()); });
      const search = new URLSearchParams(query).toString();
      await page.goto(`${site.url}${search ? `?${search}` : ""}`);
      await waitReady(page);
      return page;
    },
    async close() {
      await context.close();
      await site.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Wait until the page has started its engine and opened a memory. A page
 * that could not (no engine, or a package without MemoryStore) fails loudly.
 */
export async function waitReady(page) {
  await page.waitForFunction(() => ["true", "error", "no-store"].includes(document.body.dataset.ready),
    null, { timeout: 30_000 });
  const state = await page.evaluate(() => document.body.dataset.ready);
  if (state !== "true") {
    const message = await page.locator('[data-testid="engine-error"]').textContent();
    throw new Error(`the editor did not start: ${message}`);
  }
}

export const byTestId = (page, id) => page.locator(`[data-testid="${id}"]`);

/** How many validations the page has run so far. */
export async function validationCount(page) {
  return Number(await byTestId(page, "validate-stats").getAttribute("data-count") ?? "0");
}

/** Wait for a validation after `since` (a count read before the change). */
export async function waitValidated(page, since) {
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="validate-stats"]').dataset.count ?? "0") > n,
    since, { timeout: 10_000 });
}

/** Paste `text` at the cursor through a real paste event (see setText). */
export async function pasteText(page, text) {
  await page.locator(".cm-content").evaluate((node, pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    node.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/**
 * Select all and paste `text` (a real paste event carrying the text, which
 * CodeMirror handles like a person's paste; typing 25,000 characters through
 * the input pipeline would take the test minutes), then wait for validation.
 */
export async function setText(page, text) {
  const since = await validationCount(page);
  const content = page.locator(".cm-content");
  await content.click();
  await page.keyboard.press("Control+A");
  if (text === "") await page.keyboard.press("Delete");
  else await pasteText(page, text);
  await waitValidated(page, since);
}

/**
 * Type key by key. Line breaks are pasted: Enter would run the Markdown
 * keymap's list continuation (a new "- " bullet), and Chromium's insertText
 * turns "\n" into a paragraph break.
 */
export async function typeKeys(page, text, options = {}) {
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    if (i > 0) await pasteText(page, "\n");
    if (line) await page.keyboard.type(line, options);
  }
}

/** Type at the end of the document, and wait for validation. */
export async function typeAtEnd(page, text) {
  const since = await validationCount(page);
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  await typeKeys(page, text);
  await waitValidated(page, since);
}

/** Type at the end of the line that shows `lineText`, and wait for validation. */
export async function typeAtLine(page, lineText, text) {
  const since = await validationCount(page);
  await page.locator(".cm-line", { hasText: lineText }).click();
  await page.keyboard.press("End");
  await typeKeys(page, text);
  await waitValidated(page, since);
}

/** The editor's text as shown (all lines are rendered for documents this small), without the placeholder. */
export async function editorText(page) {
  return page.locator(".cm-content .cm-line").evaluateAll((lines) => lines.map((line) => {
    const copy = line.cloneNode(true);
    for (const widget of copy.querySelectorAll(".cm-placeholder")) widget.remove();
    return copy.textContent;
  }).join("\n"));
}

/**
 * Click the button with data-testid `id`, wait for the next outcome to be
 * announced, check its status, and return its title.
 */
export async function clickForOutcome(page, id, status) {
  return clickLocatorForOutcome(page, byTestId(page, id), status);
}

/**
 * Click a locator and wait for the next outcome, as clickForOutcome. The
 * wait polls on a timer, not on animation frames, and a page that announces
 * nothing fails with what it shows: busy or not, the Save button, the last
 * outcome and the page's errors.
 */
export async function clickLocatorForOutcome(page, locator, status) {
  const box = byTestId(page, "save-outcome");
  const seq = Number(await box.getAttribute("data-seq") ?? "0");
  await locator.click();
  try {
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="save-outcome"]').dataset.seq ?? "0") > n,
      seq, { polling: 50 });
  } catch (error) {
    const shown = await page.evaluate(() => ({
      busy: document.body.getAttribute("aria-busy"),
      saveDisabled: document.querySelector('[data-testid="save"]').disabled,
      outcome: document.querySelector('[data-testid="save-outcome"]').textContent,
      revision: document.querySelector('[data-testid="revision"]').textContent,
    }));
    throw new Error(`no outcome after the click (seq ${seq}): ${JSON.stringify({ ...shown, errors: page.errors })}`, { cause: error });
  }
  const got = await box.getAttribute("data-status");
  const title = await byTestId(page, "save-outcome-title").textContent();
  if (got !== status) throw new Error(`expected a "${status}" outcome, got "${got}": ${title}`);
  return title;
}

export async function openScope(page, scope) {
  await byTestId(page, `scope-${scope}`).check();
  await page.waitForFunction(
    (s) => document.querySelector('[data-testid="revision"]').textContent.startsWith(`${s} ·`), scope);
}

export async function saveArtifactsDir() {
  await mkdir(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

/** Code points, as the engine counts them (never String#length). */
export const codePoints = (text) => [...text].length;
