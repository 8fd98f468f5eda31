#!/usr/bin/env node
// `npm run bench:editor`: the editor's check of a 25,000-character memory,
// keystroke by keystroke, in Debian's Chromium (playwright-core, as the e2e
// tests drive it). See BENCHMARKS.md.
//
// A team memory holding the generated document (benches/gen_doc.mjs 25000)
// is saved in the page, so that `previous` is set and every rule runs, as
// when a person edits a stored memory. Then one character at a time is
// typed at the end of the document; after each, the page's lint (250 ms
// after the last key) runs the check once. Per keystroke it reports:
//
// - check: the lint source's own time, validate + the report's views + the
//   marks handed to CodeMirror (the page's `memdoc-check` User Timing
//   measure; Chromium gives pages a 0.1 ms clock);
// - validate: the engine call alone (the page's `data-last-ms`);
// - script: all the JavaScript the page ran for that keystroke (the key's
//   own handling, the check, CodeMirror drawing the marks), the difference
//   of the Chrome DevTools Protocol's ScriptDuration before the key and
//   once the check is done;
// - idle: the same ScriptDuration difference over the same wait with no
//   key pressed, the page's background.
//
//   node scripts/bench-editor.mjs              build pkg/ and www/dist, then measure
//   node scripts/bench-editor.mjs --no-build   measure the builds that are there
//   node scripts/bench-editor.mjs --keys 100   keystrokes measured (default 60)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { genDoc } from "../benches/gen_doc.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    keys: { type: "string", default: "60" },
    chars: { type: "string", default: "25000" },
  },
});
const KEYS = Number(args.keys);
const CHARS = Number(args.chars);
const WARM_UP = 5;
// The lint runs 250 ms (LINT_DELAY) after the last key; this leaves it time
// to finish and CodeMirror time to draw.
const SETTLE_MS = 450;

function run(command, argv) {
  const result = spawnSync(command, argv, { cwd: root, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`\`${[command, ...argv].join(" ")}\` failed with exit code ${result.status}`);
}

if (!args["no-build"]) {
  run("bash", ["scripts/setup"]);
  run(process.execPath, ["scripts/build.mjs"]);
  run(process.execPath, ["scripts/build-www.mjs"]);
}

const { startBrowser, setText, clickForOutcome, validationCount, byTestId } = await import("../e2e/harness.mjs");

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x) => `${x.toFixed(3)} ms`;

const browser = await startBrowser();
try {
  const page = await browser.newPage({ scope: "team", id: "bench", actor: "bench" });
  const doc = genDoc(CHARS);
  await setText(page, doc);
  await clickForOutcome(page, "save", "saved");
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
  await page.waitForTimeout(SETTLE_MS);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  const scriptSeconds = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return metrics.find((m) => m.name === "ScriptDuration").value;
  };

  const rows = [];
  const idle = [];
  for (let i = 0; i < WARM_UP + KEYS; i += 1) {
    const count = await validationCount(page);
    const before = await scriptSeconds();
    await page.keyboard.type("abcdefghij"[i % 10]);
    await page.waitForTimeout(SETTLE_MS);
    const after = await scriptSeconds();
    let checked = await validationCount(page);
    for (let tries = 0; checked !== count + 1 && tries < 20; tries += 1) {
      await page.waitForTimeout(50);
      checked = await validationCount(page);
    }
    if (checked !== count + 1) throw new Error(`keystroke ${i}: ${checked - count} checks instead of 1`);
    const check = await page.evaluate(() => performance.getEntriesByName("memdoc-check").at(-1)?.duration);
    const validate = Number(await byTestId(page, "validate-stats").getAttribute("data-last-ms"));
    if (i >= WARM_UP) rows.push({ check, validate, script: (after - before) * 1000 });
    // The same wait with no key: what the page runs anyway.
    const quiet = await scriptSeconds();
    await page.waitForTimeout(SETTLE_MS);
    if (i >= WARM_UP) idle.push(((await scriptSeconds()) - quiet) * 1000);
  }
  if (page.errors.length) throw new Error(`the page reported errors: ${page.errors.join("; ")}`);

  const version = await page.evaluate(() => navigator.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? navigator.userAgent);
  console.log(`memdoc editor bench, ${new Date().toISOString()}, ${version}, document of ${CHARS} code points (${doc.length} UTF-16 units), team scope with previous, ${KEYS} keystrokes (${WARM_UP} more to warm up)`);
  console.log("");
  console.log("| per keystroke | median | p95 | max |");
  console.log("|---|---|---|---|");
  for (const [name, values] of [
    ["check (validate + views + marks)", rows.map((r) => r.check)],
    ["validate alone", rows.map((r) => r.validate)],
    ["all script of the keystroke (CDP ScriptDuration)", rows.map((r) => r.script)],
    ["idle page over the same wait (CDP ScriptDuration)", idle],
  ]) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`| ${name} | ${ms(quantile(sorted, 0.5))} | ${ms(quantile(sorted, 0.95))} | ${ms(sorted.at(-1))} |`);
  }
} finally {
  await browser.close();
}
