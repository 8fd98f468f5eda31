// Browser tests of saving through MemoryStore on localStorage: save and
// reload, a rejected save, two tabs that conflict and are merged (or
// reloaded, keeping the loser's text), and revert from the history.
// Two pages of one browser context share localStorage, like two tabs.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  startBrowser, byTestId, setText, typeAtEnd, typeAtLine, editorText, clickForOutcome, clickLocatorForOutcome, waitReady, saveArtifactsDir,
} from "./harness.mjs";

let browser;
before(async () => { browser = await startBrowser(); });
after(async () => { await browser?.close(); });

const rows = (page) => page.locator('[data-testid="history-row"]');

test("save, reload: the content and the revision are back", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "reload-test", actor: "alice" });
  // Saving stores the canonical form: the legacy entry is rewritten.
  await setText(page, "## Product Decisions\n- (2025-03-15) [fact] Standups are on Mondays   \n\n\n");
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  assert.equal(await byTestId(page, "revision").getAttribute("data-revision"), "1");
  const canonical = "## Product Decisions\n- 2025-03-15: Standups are on Mondays";
  assert.equal(await editorText(page), canonical, "the editor should show what is stored");
  assert.equal(await byTestId(page, "dirty").isHidden(), true);

  // Saving the same text again, from the keyboard, changes nothing.
  const seq = Number(await byTestId(page, "save-outcome").getAttribute("data-seq"));
  await page.locator(".cm-content").press("Control+s");
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="save-outcome"]').dataset.seq) > n, seq);
  assert.match(await byTestId(page, "save-outcome-title").textContent(), /stays at revision 1/);

  await page.reload();
  await waitReady(page);
  assert.equal(await editorText(page), canonical);
  assert.equal(await byTestId(page, "revision").getAttribute("data-revision"), "1");
  assert.match(await byTestId(page, "revision").textContent(), /revision 1 by alice/);
  await byTestId(page, "history-panel").locator("summary").click();
  await rows(page).first().waitFor();
  assert.equal(await rows(page).count(), 1);
  assert.equal(await rows(page).first().locator("td").nth(2).textContent(), "alice");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("unsaved text survives a reload and a switch to another memory, and undo stays within a memory", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "draft-test", actor: "dana" });
  const saved = "## Project Facts\n- 2025-03-15: Office is in Seattle";
  await setText(page, saved);
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  await typeAtEnd(page, "\n- 2025-03-16: Not saved yet");
  const draft = await editorText(page);
  // Written while the page stays open too (when it is next idle after the
  // check), not only when it is left.
  await page.waitForFunction(
    (text) => Object.keys(sessionStorage).some((k) => k.startsWith("memdoc-editor:draft:") && JSON.parse(sessionStorage.getItem(k)).text === text),
    draft,
  );

  await page.reload();
  await waitReady(page);
  assert.equal(await editorText(page), draft);
  assert.match(await byTestId(page, "save-outcome-title").textContent(), /Restored your unsaved draft \(edited from revision 1\)/);
  assert.equal(await byTestId(page, "dirty").isVisible(), true);

  // Another memory, then back: each keeps its own text.
  await byTestId(page, "memory-id").fill("draft-other");
  await byTestId(page, "open").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.includes("draft-other"));
  assert.equal(await editorText(page), "");
  // Undo in the new memory cannot bring back the other memory's text.
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+z");
  assert.equal(await editorText(page), "");
  await byTestId(page, "memory-id").fill("draft-test");
  await byTestId(page, "open").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="revision"]').textContent.includes("draft-test"));
  assert.equal(await editorText(page), draft);

  // Saving it clears the draft: a reload shows the stored revision, clean.
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 2.");
  await page.reload();
  await waitReady(page);
  assert.equal(await editorText(page), draft);
  assert.match(await byTestId(page, "save-outcome-title").textContent(), /at revision 2/);
  assert.equal(await byTestId(page, "dirty").isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a save with errors is rejected, shown, and stores nothing", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "reject-test", scope: "team" });
  await setText(page, "## Team Goals\n- 2025-03-15: Ship v2");
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  await typeAtEnd(page, "\n\n## Personal Notes\n- 2025-03-16: I prefer tea");
  assert.match(await clickForOutcome(page, "save", "rejected"), /Not saved: 1 error .*Revision 1 is unchanged/);
  const details = await byTestId(page, "save-outcome-detail").allTextContents();
  assert.equal(details.length, 1);
  assert.match(details[0], /scope\/personal-heading/);
  assert.equal(await byTestId(page, "revision").getAttribute("data-revision"), "1");
  assert.equal(await byTestId(page, "dirty").isVisible(), true, "the rejected text stays in the editor");
  assert.match(await editorText(page), /## Personal Notes/);

  // Validation compares with the saved revision: dropping its section is flagged.
  await setText(page, "## Roadmap\n- 2025-03-17: Plan v3");
  await page.locator('[data-testid="problem"][data-code="diff/section-removed"]').waitFor();
  assert.deepEqual(page.errors, []);
  await page.close();
});

async function twoTabsInConflict(id) {
  const alice = await browser.newPage({ id, actor: "alice" });
  await setText(alice, "## Product Decisions\n- 2025-03-15: Standups are on Mondays\n\n## Engineering Conventions\n- 2025-03-16: Services use PostgreSQL 16");
  assert.equal(await clickForOutcome(alice, "save", "saved"), "Saved: revision 1.");

  const bob = await browser.newPage({ id, actor: "bob" });
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "1");

  // Both edit revision 1, in different sections.
  await typeAtLine(alice, "Standups are on Mondays", "\n- 2025-03-20: Retro every other Friday");
  await typeAtLine(bob, "PostgreSQL 16", "\n- 2025-03-21: Migrations run in CI");
  await bob.waitForFunction(() => !document.querySelector('[data-testid="dirty"]').hidden);

  const saveButton = await byTestId(bob, "save").boundingBox();
  assert.equal(await clickForOutcome(alice, "save", "saved"), "Saved: revision 2.");
  // Alice's save reaches bob's tab as a notice, which moves nothing he might
  // be about to click.
  await byTestId(bob, "remote-change").waitFor();
  assert.match(await byTestId(bob, "remote-change-text").textContent(), /^Revision 2 was saved by alice in another tab/);
  assert.deepEqual(await byTestId(bob, "save").boundingBox(), saveButton, "the Save button stays where it was");

  assert.match(await clickForOutcome(bob, "save", "conflict"), /^Conflict: revision 2 was saved by alice/);
  assert.equal(await byTestId(bob, "remote-change").isHidden(), true, "the conflict panel takes over from the notice");
  const conflict = byTestId(bob, "conflict");
  assert.equal(await conflict.isVisible(), true);
  assert.match(await byTestId(bob, "conflict-ours").textContent(), /Migrations run in CI/);
  assert.doesNotMatch(await byTestId(bob, "conflict-ours").textContent(), /Retro every other Friday/);
  assert.match(await byTestId(bob, "conflict-theirs").textContent(), /Retro every other Friday/);
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "1", "nothing was saved for bob");
  return { alice, bob };
}

test("two tabs save the same memory: the second gets a conflict and merges", { timeout: 90_000 }, async () => {
  const { alice, bob } = await twoTabsInConflict("conflict-merge");
  // The merge is offered for review first: nothing is saved until bob saves it.
  assert.equal(await byTestId(bob, "conflict-item").count(), 0, "entries added on both sides do not conflict");
  const offered = await byTestId(bob, "conflict-result").inputValue();
  assert.match(offered, /Retro every other Friday/);
  assert.match(offered, /Migrations run in CI/);
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "1", "nothing was saved yet");
  assert.equal(await clickForOutcome(bob, "conflict-save", "saved"), "Saved: revision 3.");
  assert.equal(await byTestId(bob, "conflict").isHidden(), true);
  const merged = await editorText(bob);
  assert.match(merged, /Retro every other Friday/, "alice's entry survives");
  assert.match(merged, /Migrations run in CI/, "bob's entry survives");
  assert.match(merged, /Standups are on Mondays/);
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "3");

  // Alice's tab, with nothing unsaved, follows to revision 3.
  await alice.waitForFunction(() => document.querySelector('[data-testid="revision"]').dataset.revision === "3");
  assert.equal(await editorText(alice), merged);

  await byTestId(bob, "history-panel").locator("summary").click();
  await bob.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 3);
  assert.deepEqual(await rows(bob).locator("td:nth-child(3)").allTextContents(), ["bob", "alice", "alice"]);
  assert.deepEqual([...alice.errors, ...bob.errors], []);
  await alice.close();
  await bob.close();
});

test("a merge that collides lists each conflict with a choice, and saves the merged text only when the person saves it", { timeout: 90_000 }, async () => {
  const id = "conflict-lines";
  const alice = await browser.newPage({ id, actor: "alice" });
  await setText(alice, "## Team Goals\n- 2025-03-15: Ship v2\nOwner: nobody yet");
  assert.equal(await clickForOutcome(alice, "save", "saved"), "Saved: revision 1.");
  const bob = await browser.newPage({ id, actor: "bob" });
  await setText(alice, "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Alice");
  await setText(bob, "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Bob");
  assert.equal(await clickForOutcome(alice, "save", "saved"), "Saved: revision 2.");
  assert.match(await clickForOutcome(bob, "save", "conflict"), /^Conflict/);
  const item = byTestId(bob, "conflict-item");
  await item.waitFor();
  assert.equal(await item.count(), 1);
  assert.equal(await item.getAttribute("data-kind"), "lines");
  assert.match(await item.textContent(), /Team Goals/);
  assert.match(await item.textContent(), /Yours\s*Owner: Bob/);
  assert.match(await item.textContent(), /Theirs\s*Owner: Alice/);
  assert.match(await item.textContent(), /Base\s*Owner: nobody yet/);
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "1", "nothing was saved");
  assert.equal(await byTestId(bob, "remote-change").isHidden(), true);
  await bob.screenshot({ path: join(await saveArtifactsDir(), "conflict.png"), fullPage: true });

  const result = byTestId(bob, "conflict-result");
  assert.equal(await result.inputValue(), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Bob");
  await item.getByTestId("conflict-choose-theirs").check();
  assert.equal(await result.inputValue(), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Alice");
  // What the person types in the merged text stays: a choice made after it leaves it alone.
  await result.fill("## Team Goals\n- 2025-03-15: Ship v2\nOwner: Alice and Bob");
  await item.getByTestId("conflict-choose-ours").check();
  assert.equal(await result.inputValue(), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Alice and Bob");
  assert.equal(await byTestId(bob, "conflict-choice-note").isVisible(), true);
  assert.equal(await editorText(bob), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Bob", "the editor keeps what bob typed");
  assert.equal(await clickForOutcome(bob, "conflict-save", "saved"), "Saved: revision 3.");
  assert.equal(await editorText(bob), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Alice and Bob");
  assert.equal(await byTestId(bob, "kept-text").textContent(), "## Team Goals\n- 2025-03-15: Ship v2\nOwner: Bob", "bob's own text is kept below");

  // The history says what each revision changed, and its buttons fit the panel.
  await byTestId(bob, "history-panel").locator("summary").click();
  await bob.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 3);
  await rows(bob).first().getByTestId("history-changes").click();
  assert.match(await byTestId(bob, "revision-view-title").textContent(), /^Changes in revision 3 against revision 2: 1 line added, 1 removed/);
  const changed = byTestId(bob, "revision-view-text");
  assert.deepEqual(await changed.locator('.line[data-change="removed"]').allTextContents(), ["− Owner: Alice\n"]);
  assert.deepEqual(await changed.locator('.line[data-change="added"]').allTextContents(), ["+ Owner: Alice and Bob\n"]);
  const panel = await byTestId(bob, "history-panel").boundingBox();
  for (const button of await byTestId(bob, "history-revert").all()) {
    const box = await button.boundingBox();
    assert.ok(box.x >= panel.x && box.x + box.width <= panel.x + panel.width, `Revert fits its panel: ${JSON.stringify([box, panel])}`);
    assert.equal(await button.evaluate((b) => b.scrollWidth <= b.clientWidth), true, "its label is not clipped");
  }
  assert.deepEqual([...alice.errors, ...bob.errors], []);
  await alice.close();
  await bob.close();
});

test("a conflict resolved by overwriting keeps the other version in the history", { timeout: 90_000 }, async () => {
  const { alice, bob } = await twoTabsInConflict("conflict-overwrite");
  assert.equal(await clickForOutcome(bob, "conflict-overwrite", "saved"), "Saved: revision 3.");
  assert.match(await editorText(bob), /Migrations run in CI/);
  assert.doesNotMatch(await editorText(bob), /Retro every other Friday/);
  await byTestId(bob, "history-panel").locator("summary").click();
  await bob.getByRole("button", { name: "View revision 2" }).click();
  assert.match(await byTestId(bob, "revision-view-text").textContent(), /Retro every other Friday/,
    "alice's revision is still there");
  await alice.close();
  await bob.close();
});

test("a save of a third revision during a conflict is announced below the panel, which stays in place", { timeout: 90_000 }, async () => {
  const { alice, bob } = await twoTabsInConflict("conflict-third");
  const merge = await byTestId(bob, "conflict-save").boundingBox();
  await typeAtLine(alice, "Retro every other Friday", "\n- 2025-03-22: Demos on Thursdays");
  assert.equal(await clickForOutcome(alice, "save", "saved"), "Saved: revision 3.");
  await byTestId(bob, "remote-change").waitFor();
  assert.match(await byTestId(bob, "remote-change-text").textContent(), /^Revision 3 was saved by alice in another tab/);
  assert.deepEqual(await byTestId(bob, "conflict-save").boundingBox(), merge, "the conflict's buttons stay where they were");
  assert.deepEqual([...alice.errors, ...bob.errors], []);
  await alice.close();
  await bob.close();
});

test("a conflict resolved by reloading keeps the losing text on the page", { timeout: 90_000 }, async () => {
  const { alice, bob } = await twoTabsInConflict("conflict-reload");
  const mine = await byTestId(bob, "conflict-ours").textContent();
  await byTestId(bob, "conflict-reload").click();
  await byTestId(bob, "kept").waitFor();
  assert.equal(await byTestId(bob, "kept-text").textContent(), mine, "bob's text is kept, not lost");
  assert.equal(await byTestId(bob, "revision").getAttribute("data-revision"), "2");
  assert.match(await editorText(bob), /Retro every other Friday/);
  assert.doesNotMatch(await editorText(bob), /Migrations run in CI/);
  // And it can be put back and saved on top of revision 2.
  await byTestId(bob, "kept-restore").click();
  assert.equal(await clickForOutcome(bob, "save", "saved"), "Saved: revision 3.");
  assert.match(await editorText(bob), /Migrations run in CI/);
  await alice.close();
  await bob.close();
});

test("revert from history restores an older revision as a new one", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ id: "revert-test", actor: "carol" });
  const first = "## Product Decisions\n- 2025-03-15: Standups are on Mondays";
  await setText(page, first);
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 1.");
  await setText(page, `${first}\n- 2025-03-18: Standups move to Tuesdays\n\n## Project Facts\n- 2025-03-19: Office is on the 5th floor`);
  assert.equal(await clickForOutcome(page, "save", "saved"), "Saved: revision 2.");

  await byTestId(page, "history-panel").locator("summary").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 2);
  const newest = rows(page).first();
  assert.equal(await newest.getAttribute("data-revision"), "2");
  assert.match(await newest.locator("td").nth(3).textContent(), /\(\+\d+\)/, "the size delta is shown");

  // View revision 1, then revert to it.
  const oldest = page.locator('[data-testid="history-row"][data-revision="1"]');
  await oldest.getByRole("button", { name: "View revision 1" }).click();
  assert.equal(await byTestId(page, "revision-view-text").textContent(), first);
  assert.equal(await clickLocatorForOutcome(page, oldest.getByRole("button", { name: "Revert to revision 1" }), "saved"),
    "Reverted: revision 3.");
  assert.equal(await editorText(page), first);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="history-row"]').length === 3);
  assert.equal(await rows(page).first().getAttribute("data-revision"), "3");
  assert.match(await rows(page).first().locator("td").nth(3).textContent(), /\(−\d+\)/);
  assert.equal(await byTestId(page, "revision").getAttribute("data-revision"), "3");
  assert.deepEqual(page.errors, []);
  await page.close();
});
