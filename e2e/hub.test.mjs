// Browser test of the editor against a memdoc hub: the hub's Worker runs in
// workerd on 127.0.0.1, the editor connects to it with a key, lists the
// memories the key can open, saves, sees another member's save (a REST
// write) live while it has unsaved text, resolves the conflict by merge
// (from the live notice, and from a save the hub refuses with 412),
// reverts, and follows along when it has nothing unsaved. Nothing typed is
// lost on the way, and the key never reaches the page URL.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBrowser, byTestId, setText, typeAtEnd, editorText, clickForOutcome, clickLocatorForOutcome, waitReady } from "./harness.mjs";
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
  const key = async (member) => (await rest("POST", `/v1/teams/${TEAM}/keys`, made.key, { body: { member, role: "writer" } })).json.key;
  keys = { alice: await key("alice"), bob: await key("bob") };
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await hub?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function connect(page) {
  await byTestId(page, "source-panel").locator("summary").click();
  await byTestId(page, "hub-url").fill(hub.url);
  await byTestId(page, "hub-key").fill(keys.alice);
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
  await clickForOutcome(page, "conflict-merge", "saved");
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
  await clickForOutcome(page, "conflict-merge", "saved");
  stored = await rest("GET", path, keys.bob);
  assert.equal(stored.json.revision, 7);
  assert.match(stored.json.content, /Typed before the reload/);
  assert.match(stored.json.content, /Bob's third/);

  // Chromium logs every 4xx answer; the rejected save's 422 and the stale save's 412 were expected.
  assert.deepEqual(page.errors.filter((e) => !/status of (412|422)/.test(e)), []);
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
