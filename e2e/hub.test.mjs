// Browser test of the editor against a memdoc hub: the hub's Worker runs in
// workerd on 127.0.0.1, the editor connects to it with a key, lists the
// memories the key can open, saves, sees another member's save (a REST
// write) live while it has unsaved text, resolves the conflict by merge
// (from the live notice, and from a save the hub refuses with 412),
// reverts, and follows along when it has nothing unsaved. Nothing typed is
// lost on the way, and the key never reaches the page URL. Another writer
// that saves in the very frame of a keystroke, or 10 ms, 100 ms or 1 s
// after it, or while the live connection is down, never replaces the typed
// text: the page offers the merge. A conflicting merge offers the store's
// merged text, with its markers.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBrowser, byTestId, setText, typeAtEnd, editorText, clickForOutcome, clickLocatorForOutcome, waitReady, pasteText, saveArtifactsDir } from "./harness.mjs";
import { ask, best, byMeaning, markedLines } from "./recall-page.mjs";
import { startWorkerd } from "../hub/run.mjs";

const operator = randomBytes(24).toString("base64url");
const work = mkdtempSync(join(tmpdir(), "memdoc-e2e-hub-"));
let browser;
let hub;
let keys;
const TEAM = "editors";
const path = `/v1/teams/${TEAM}/memories/team/notes`;

async function rest(method, route, key, { body, headers = {} } = {}) {
  const init = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(hub.url + route, init);
  return { status: response.status, json: await response.json() };
}

before(async () => {
  hub = await startWorkerd({ build: join(work, "build"), persist: false, vars: { MEMDOC_HUB_OPERATOR_TOKEN: operator } });
  const made = await fetch(`${hub.url}/v1/teams`, {
    method: "POST",
    headers: { authorization: `Bearer ${operator}`, "content-type": "application/json" },
    body: JSON.stringify({ team: TEAM, admin: "root" }),
  }).then((r) => r.json());
  const key = async (member, role = "writer") => (await rest("POST", `/v1/teams/${TEAM}/keys`, made.key, { body: { member, role } })).json.key;
  keys = { alice: await key("alice"), bob: await key("bob"), rita: await key("rita", "reader") };
  browser = await startBrowser();
  // The live connection can be dropped from the test, as a network would:
  // every WebSocket the page opens is listed, and while `__liveDown` is set
  // new ones go to a port where nothing listens (they fail and close).
  await browser.context.addInitScript(() => {
    const Real = window.WebSocket;
    window.__sockets = [];
    window.__liveDown = false;
    window.WebSocket = class extends Real {
      constructor(url, protocols) {
        super(window.__liveDown ? String(url).replace(/\/\/[^/]+/, "//127.0.0.1:9") : url, protocols);
        window.__sockets.push(this);
      }
    };
  });
});
after(async () => {
  await browser?.close();
  await hub?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function connect(page, key = keys.alice) {
  await byTestId(page, "source-panel").locator("summary").click();
  await byTestId(page, "hub-url").fill(hub.url);
  await byTestId(page, "hub-key").fill(key);
  await byTestId(page, "hub-connect").click();
  await page.waitForFunction(() => document.body.dataset.source === "hub");
}

test("the editor on a hub: save, another writer live, merge, revert, follow", { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ scope: "team", id: "notes" });
  await connect(page);
  assert.match(await byTestId(page, "hub-status").textContent(), /as alice \(writer\) in team editors/);
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.startsWith("team · notes"));
  assert.equal(await byTestId(page, "actor").inputValue(), "alice");
  assert.doesNotMatch(page.url(), /mdk\./, "the key never goes into the page URL");

  // Save through the REST API.
  const first = "## Decisions\n- 2025-03-15: Ship on Fridays";
  await setText(page, first);
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  let stored = await rest("GET", path, keys.bob);
  assert.equal(stored.json.revision, 1);
  assert.equal(stored.json.content, first);
  assert.equal(stored.json.updatedBy, "alice");

  // The source panel lists the memories the key can open; reopening it refreshes the list.
  assert.equal(await byTestId(page, "hub-memories-empty").isVisible(), true);
  const summary = byTestId(page, "source-panel").locator("summary");
  await summary.click();
  await summary.click();
  await page.locator('[data-testid="hub-memory"][data-scope="team"][data-id="notes"]').waitFor();

  // A rejected save shows the server's diagnostics like local ones, and keeps the text.
  await setText(page, `${first}\n\n## Preferences\n- 2025-03-16: Tea`);
  await clickForOutcome(page, "save", "rejected");
  assert.match(await byTestId(page, "save-outcome").textContent(), /scope\/personal-heading/);
  assert.match(await editorText(page), /Tea/);
  await setText(page, first);

  // Alice types; Bob saves meanwhile (a REST write): the page says so at once, and keeps her text.
  await typeAtEnd(page, "\n- 2025-03-20: Alice's line");
  const bobs = `${first}\n\n## Facts\n- 2025-03-19: Bob's fact`;
  const put = await rest("PUT", path, keys.bob, { body: { content: bobs }, headers: { "if-match": '"1"' } });
  assert.equal(put.status, 200);
  await byTestId(page, "remote-change").waitFor({ state: "visible" });
  assert.match(await byTestId(page, "remote-change-text").textContent(), /Revision 2 was saved by bob on the hub/);
  assert.match(await editorText(page), /Alice's line/, "the unsaved text stays");

  // Review, then merge: both changes are kept, as revision 3.
  await byTestId(page, "remote-merge").click();
  await byTestId(page, "conflict").waitFor({ state: "visible" });
  assert.match(await byTestId(page, "conflict-theirs").textContent(), /Bob's fact/);
  assert.match(await byTestId(page, "conflict-ours").textContent(), /Alice's line/);
  await clickForOutcome(page, "conflict-save", "saved");
  stored = await rest("GET", path, keys.bob);
  assert.equal(stored.json.revision, 3);
  assert.match(stored.json.content, /Alice's line/);
  assert.match(stored.json.content, /Bob's fact/);
  assert.equal(await editorText(page), stored.json.content);

  // Revert to revision 1 from the history (a new revision, 4).
  await byTestId(page, "history-panel").locator("summary").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 3);
  const oldest = page.locator('[data-testid="history-row"][data-revision="1"]');
  await oldest.getByRole("button", { name: "View revision 1" }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="revision-view"]').dataset.revision === "1");
  assert.equal(await byTestId(page, "revision-view-text").textContent(), first);
  assert.equal(await clickLocatorForOutcome(page, oldest.getByRole("button", { name: "Revert to revision 1" }), "saved"), "Reverted: revision 4.");
  stored = await rest("GET", path, keys.bob);
  assert.equal(stored.json.revision, 4);
  assert.equal(stored.json.content, first);

  // With nothing unsaved, the page follows another writer's save by itself.
  const again = `${first}\n- 2025-03-21: Bob again`;
  assert.equal((await rest("PUT", path, keys.bob, { body: { content: again }, headers: { "if-match": '"4"' } })).status, 200);
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').dataset.revision === "5");
  assert.equal(await editorText(page), again);
  assert.match(await byTestId(page, "save-outcome").textContent(), /Updated to revision 5, saved by bob on the hub/);

  // A reload stays connected (the key is in this tab's session storage) and loses nothing.
  await typeAtEnd(page, "\n- 2025-03-22: Typed before the reload");
  await page.reload();
  await waitReady(page);
  await page.waitForFunction(() => document.body.dataset.source === "hub");
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').dataset.revision === "5");
  assert.match(await editorText(page), /Typed before the reload/);
  assert.doesNotMatch(page.url(), /mdk\./);

  // Saving over a newer revision: the hub's 412 opens the conflict view; merge keeps both.
  const bobs3 = `## Facts\n- 2025-03-23: Bob's third\n\n${again}`;
  assert.equal((await rest("PUT", path, keys.bob, { body: { content: bobs3 }, headers: { "if-match": '"5"' } })).status, 200);
  await byTestId(page, "remote-change").waitFor({ state: "visible" });
  assert.match(await clickForOutcome(page, "save", "conflict"), /^Conflict: revision 6 was saved by bob/);
  assert.match(await byTestId(page, "conflict-ours").textContent(), /Typed before the reload/);
  await clickForOutcome(page, "conflict-save", "saved");
  stored = await rest("GET", path, keys.bob);
  assert.equal(stored.json.revision, 7);
  assert.match(stored.json.content, /Typed before the reload/);
  assert.match(stored.json.content, /Bob's third/);

  // Chromium logs every 4xx answer; the rejected save's 422 and the stale save's 412 were expected.
  assert.deepEqual(page.errors.filter((e) => !/status of (412|422)/.test(e)), []);
  await page.close();
});

/** A page connected to the hub, showing team memory `id` at revision 1 (saved by bob as `content`). */
async function openSaved(id, content) {
  const route = `/v1/teams/${TEAM}/memories/team/${id}`;
  assert.equal((await rest("PUT", route, keys.bob, { body: { content }, headers: { "if-match": '"0"' } })).status, 200);
  const page = await browser.newPage({ scope: "team", id });
  await connect(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').dataset.revision === "1");
  await page.waitForFunction(() => window.__sockets.some((s) => s.readyState === WebSocket.OPEN));
  return { page, route };
}

/**
 * Type `line` on a new line at the end, as a person does (Ctrl+End, a line
 * break, the keys), and have bob save `content` over revision 1 through the
 * REST API `after` the last key: "frame" in the task of that keydown (the
 * same animation frame), or that many milliseconds later, timed in the page.
 */
async function typeWhileBobSaves(page, route, line, content, after) {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  await pasteText(page, "\n");
  await page.keyboard.type(line.slice(0, -1));
  await page.evaluate(({ url, key, body, after }) => {
    window.__bob = null;
    const put = () => fetch(url, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "if-match": '"1"' },
      body: JSON.stringify({ content: body }),
    }).then((r) => { window.__bob = r.status; }, (e) => { window.__bob = String(e); });
    document.querySelector(".cm-content").addEventListener("keydown", () => {
      if (after === "frame") put();
      else setTimeout(put, after);
    }, { once: true, capture: true });
  }, { url: hub.url + route, key: keys.bob, body: content, after });
  await page.keyboard.type(line.slice(-1));
  await page.waitForFunction(() => window.__bob !== null);
  assert.equal(await page.evaluate(() => window.__bob), 200, "bob's save should be stored");
}

/** The typed text is still there, the page is still at revision 1, and it offers bob's revision 2 to merge; merging stores both. */
async function keptAndMerged(page, route, line, bobLine) {
  await byTestId(page, "remote-change").waitFor({ state: "visible" });
  assert.match(await byTestId(page, "remote-change-text").textContent(), /Revision 2 was saved by bob on the hub/);
  assert.ok((await editorText(page)).endsWith(line), "the typed line stays");
  assert.equal(await byTestId(page, "revision").getAttribute("data-revision"), "1", "the page did not move on under the text");
  assert.doesNotMatch(await byTestId(page, "save-outcome").textContent(), /Updated to revision 2/);
  await byTestId(page, "remote-merge").click();
  await byTestId(page, "conflict").waitFor({ state: "visible" });
  await clickForOutcome(page, "conflict-save", "saved");
  const stored = await rest("GET", route, keys.bob);
  assert.equal(stored.json.revision, 3);
  assert.ok(stored.json.content.includes(line) && stored.json.content.includes(bobLine), stored.json.content);
  assert.equal(await editorText(page), stored.json.content);
}

const START = "## Decisions\n- 2025-03-15: Ship on Fridays";
const BOB_LINE = "- 2025-03-19: Bob's fact";
const BOBS = `## Facts\n${BOB_LINE}\n\n${START}`;

for (const after of ["frame", 10, 100, 1000]) {
  test(`a save by another writer ${after === "frame" ? "in the frame of the last keystroke" : `${after} ms after the last keystroke`} never replaces the typed text`, { timeout: 60_000 }, async () => {
    const id = `typed-${after}`;
    const { page, route } = await openSaved(id, START);
    const line = `- 2025-03-20: Alice typed this (${after})`;
    await typeWhileBobSaves(page, route, line, BOBS, after);
    await keptAndMerged(page, route, line, BOB_LINE);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test("a save by another writer while the live connection is down never replaces the typed text, nor does a reload", { timeout: 60_000 }, async () => {
  const { page, route } = await openSaved("typed-offline", START);
  const line = "- 2025-03-20: Alice typed this while offline";
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  await pasteText(page, "\n");
  // The connection drops right after the last key; bob saves; it comes back.
  await page.evaluate(() => {
    document.querySelector(".cm-content").addEventListener("keydown", () => {
      window.__liveDown = true;
      for (const socket of window.__sockets) socket.close();
    }, { once: true, capture: true });
  });
  await page.keyboard.type(line);
  assert.equal((await rest("PUT", route, keys.bob, { body: { content: BOBS }, headers: { "if-match": '"1"' } })).status, 200);
  // At least one reconnection fails before the connection is back.
  await page.waitForFunction(() => window.__sockets.some((s) => s.url.includes(":9/") && s.readyState === WebSocket.CLOSED));
  await page.evaluate(() => { window.__liveDown = false; });
  await page.waitForFunction(() => window.__sockets.filter((s) => !s.url.includes(":9/")).at(-1)?.readyState === WebSocket.OPEN);
  await byTestId(page, "remote-change").waitFor({ state: "visible" });
  assert.ok((await editorText(page)).endsWith(line));

  // A reload keeps the text too (the draft of revision 1); saving it then
  // meets bob's revision and merges.
  await page.reload();
  await waitReady(page);
  await page.waitForFunction(() => document.body.dataset.source === "hub");
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').dataset.revision === "1");
  assert.ok((await editorText(page)).endsWith(line), "the draft is restored");
  assert.match(await clickForOutcome(page, "save", "conflict"), /^Conflict: revision 2 was saved by bob/);
  await clickForOutcome(page, "conflict-save", "saved");
  const stored = await rest("GET", route, keys.bob);
  assert.ok(stored.json.content.includes(line) && stored.json.content.includes(BOB_LINE), stored.json.content);
  assert.deepEqual(page.errors.filter((e) => !/status of 412|127\.0\.0\.1:9/.test(e)), []);
  await page.close();
});

test("a same-entry conflict against the hub shows base, yours and theirs highlighted, and saves only the result the person confirmed", { timeout: 60_000 }, async () => {
  const { page, route } = await openSaved("entry-clash", "## Decisions\n- 2025-03-16: Services use PostgreSQL 16\n- 2025-03-17: Deploy on Tuesdays");
  await setText(page, "## Decisions\n- 2025-03-16: Services use PostgreSQL 17\n- 2025-03-17: Deploy on Tuesdays");
  const bobs = "## Decisions\n- 2025-03-16: Services use PostgreSQL 16.4 (pinned)\n- 2025-03-17: Deploy on Tuesdays\n- 2025-03-18: Bob's new entry";
  assert.equal((await rest("PUT", route, keys.bob, { body: { content: bobs }, headers: { "if-match": '"1"' } })).status, 200);
  await byTestId(page, "remote-change").waitFor({ state: "visible" });
  await byTestId(page, "remote-merge").click();
  await byTestId(page, "conflict").waitFor({ state: "visible" });
  // The three versions, the entry both changed highlighted in each, bob's addition as a change.
  const marked = (testId, change) => byTestId(page, testId).locator(`.line[data-change="${change}"]`).allTextContents();
  assert.deepEqual(await marked("conflict-base", "conflict"), ["- 2025-03-16: Services use PostgreSQL 16\n"]);
  assert.deepEqual(await marked("conflict-ours", "conflict"), ["- 2025-03-16: Services use PostgreSQL 17\n"]);
  assert.deepEqual(await marked("conflict-theirs", "conflict"), ["- 2025-03-16: Services use PostgreSQL 16.4 (pinned)\n"]);
  assert.deepEqual(await marked("conflict-theirs", "changed"), ["- 2025-03-18: Bob's new entry"]);
  const item = byTestId(page, "conflict-item");
  assert.equal(await item.count(), 1);
  assert.equal(await item.getAttribute("data-kind"), "entry");
  // The merged text: one version of the entry (yours until chosen), bob's addition.
  const result = byTestId(page, "conflict-result");
  assert.equal(await result.inputValue(), "## Decisions\n- 2025-03-16: Services use PostgreSQL 17\n- 2025-03-17: Deploy on Tuesdays\n- 2025-03-18: Bob's new entry");
  await item.getByTestId("conflict-choose-theirs").check();
  assert.equal(await result.inputValue(), "## Decisions\n- 2025-03-16: Services use PostgreSQL 16.4 (pinned)\n- 2025-03-17: Deploy on Tuesdays\n- 2025-03-18: Bob's new entry");
  await page.screenshot({ path: join(await saveArtifactsDir(), "entry-conflict.png"), fullPage: true });
  // Nothing is saved until the person saves the text they reviewed and edited.
  assert.equal((await rest("GET", route, keys.bob)).json.revision, 2);
  const confirmed = "## Decisions\n- 2025-03-16: Services use PostgreSQL 16.4 (pinned until May)\n- 2025-03-17: Deploy on Tuesdays\n- 2025-03-18: Bob's new entry";
  await result.fill(confirmed);
  assert.equal((await rest("GET", route, keys.bob)).json.revision, 2, "editing the result saves nothing");
  await clickForOutcome(page, "conflict-save", "saved");
  const stored = await rest("GET", route, keys.bob);
  assert.equal(stored.json.revision, 3);
  assert.equal(stored.json.content, confirmed);
  assert.equal(await editorText(page), confirmed);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the user scope on a hub is the key's member's own memory", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ scope: "user", id: "someone-else" });
  await connect(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.startsWith("user · alice"));
  assert.equal(await byTestId(page, "memory-id").inputValue(), "alice");
  await setText(page, "## Preferences\n- 2025-03-16: Tea, not coffee");
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  assert.equal((await rest("GET", `/v1/teams/${TEAM}/memories/user/alice`, keys.alice)).json.revision, 1);
  assert.equal((await rest("GET", `/v1/teams/${TEAM}/memories/user/alice`, keys.bob)).status, 404);

  // From the list, open the team memory.
  const summary = byTestId(page, "source-panel").locator("summary");
  await summary.click();
  await summary.click();
  await page.locator('[data-testid="hub-memory"][data-scope="user"][data-id="alice"]').waitFor();
  await page.locator('[data-testid="hub-memory"][data-scope="team"][data-id="notes"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.startsWith("team · notes · revision 7"));
  assert.match(await editorText(page), /Bob's third/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("against a hub, the recall panel's by meaning is MiniLM, as the hub's own default on Deno", { timeout: 240_000 }, async () => {
  const page = await browser.newPage({ scope: "user", id: "alice" });
  await connect(page);
  // The memory opened (its saved text shown) before the text is typed over it.
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.startsWith("user · alice"));
  await setText(page, "## Decisions\n- 2025-03-01: Services use PostgreSQL 16\n- 2025-03-02: Production releases only ship on Tuesdays and Thursdays");
  await byTestId(page, "recall-panel").locator("> summary").click();
  await byTestId(page, "recall-question").fill("which relational database do we run?");
  const status = await byMeaning(page);
  assert.equal(await byTestId(page, "recall-status").getAttribute("data-degraded"), "", status);
  assert.match(status, /by meaning \(all-MiniLM-L6-v2\)\.$/);
  const marked = await markedLines(page);
  assert.ok(marked.includes("- 2025-03-01: Services use PostgreSQL 16"), `marked ${JSON.stringify(marked)} in ${JSON.stringify(await editorText(page))}`);
  assert.equal((await best(page)).text, "Services use PostgreSQL 16");
  assert.match(await ask(page, "when can we deploy?"), /by meaning \(all-MiniLM-L6-v2\)\.$/);
  assert.equal((await best(page)).text, "Production releases only ship on Tuesdays and Thursdays");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a reader's key shows the memory read-only: no typing, Save disabled, and why", { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ id: "reader" });
  await connect(page, keys.rita);
  assert.match(await byTestId(page, "hub-status").textContent(), /as rita \(reader\).*This key may only read: the memory is shown read-only\./);
  assert.equal(await byTestId(page, "save").isDisabled(), true);
  assert.equal(await byTestId(page, "editor-content").getAttribute("contenteditable"), "false");
  // Disconnected, the browser's own store is writable again.
  await byTestId(page, "hub-disconnect").click();
  await page.waitForFunction(() => document.body.dataset.source === "browser");
  assert.equal(await byTestId(page, "save").isDisabled(), false);
  assert.equal(await byTestId(page, "editor-content").getAttribute("contenteditable"), "true");
  await page.close();
});
