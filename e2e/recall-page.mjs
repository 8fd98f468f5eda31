// The recall panel of the page under test, read as a person sees it (used
// by e2e/recall.test.mjs in the browser store and e2e/hub.test.mjs against
// a hub).

import { byTestId } from "./harness.mjs";

/** The lines of the editor that carry a recall mark, as shown. */
export const markedLines = (page) => page.locator(".cm-line:has(.cm-recalled)").allTextContents();

/** The selected item of the highest relevance, as listed: its text and its why. */
export const best = (page) => page.locator(".recall-item:not(.omitted)").evaluateAll((items) => items
  .map((li) => ({ text: li.querySelector(".msg").textContent, why: li.querySelector(".why").textContent }))
  .reduce((a, b) => (Number(/^relevance (\S+)/.exec(b.why)[1]) > Number(/^relevance (\S+)/.exec(a.why)[1]) ? b : a)));

/** Type `question` into the panel and wait until the recall of it is shown. */
export async function ask(page, question) {
  await byTestId(page, "recall-question").fill("");
  await byTestId(page, "recall-question").pressSequentially(question);
  await page.waitForFunction((q) => {
    const box = document.querySelector('[data-testid="recall-status"]');
    return ["done", "degraded"].includes(box.dataset.status) && box.dataset.question === q;
  }, question, { timeout: 150_000, polling: 100 });
  return byTestId(page, "recall-status").textContent();
}

/** Choose "by meaning" and wait until its first recall (the model's load included) is shown. */
export async function byMeaning(page) {
  await byTestId(page, "recall-meaning").check();
  await page.waitForFunction(() => document.querySelector('[data-testid="recall-status"]').dataset.status === "loading");
  await page.waitForFunction(() => ["done", "degraded", "error"].includes(document.querySelector('[data-testid="recall-status"]').dataset.status),
    null, { timeout: 200_000, polling: 250 });
  return byTestId(page, "recall-status").textContent();
}
