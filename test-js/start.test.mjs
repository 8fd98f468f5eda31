// `npm start` as the very first command after `git clone`: a clone of this
// checkout's HEAD (committed work only; no node_modules, pkg/ or www/dist)
// sets up only what the editor needs, builds the package and the editor,
// prints its URL and serves the editor; a second `npm start` does the same
// with nothing to install. The clone builds Rust into a folder of its own
// under this checkout's target/ (kept between runs) and installs npm
// packages from npm's cache, like a second checkout on a developer's
// machine. Its own folder, because Cargo tells a build is fresh by file
// times: a clone of HEAD building into this checkout's target/ would leave
// there a build that Cargo then takes for one of the uncommitted sources.
//
// No deadline: what this checks is that the clone gets to its URL, and how
// long that takes depends on the machine's load as much as on the work
// (two CPU-heavy processes beside it made a fixed one fail). The time is
// measured by `npm run bench:start` (BENCHMARKS.md, "First run"), on a
// clone with nothing installed; a start that never gets there fails by
// exiting, or by the run's own limit.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { root } from "./helpers.mjs";

/** Resolve with the first match of `pattern` in the child's stdout; reject if it exits first. */
function waitForOutput(child, pattern, log) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      log.push(chunk);
      const match = out.match(pattern);
      if (match) resolve(match);
    });
    child.stderr.on("data", (chunk) => log.push(chunk));
    child.on("exit", (code, signal) => reject(new Error(`npm start exited (${signal ?? code}) before printing its URL`)));
  });
}

/** `npm start` in `clone` until it printed its URL: the URL, what it printed, and its stop. */
async function start(clone, t) {
  const log = [];
  const started = Date.now();
  const child = spawn("npm", ["start"], {
    cwd: clone,
    env: { ...process.env, PORT: "0", CARGO_TARGET_DIR: join(root, "target", "fresh-clone") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const stop = async () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
  };
  try {
    const [, url] = await waitForOutput(child, /memdoc editor: (http:\/\/127\.0\.0\.1:\d+\/)/, log);
    t.diagnostic(`npm start printed its URL after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { url, printed: () => Buffer.concat(log.map((c) => Buffer.from(c))).toString(), stop };
  } catch (error) {
    await stop();
    throw new Error(`${error.message}; its output:\n${Buffer.concat(log.map((c) => Buffer.from(c))).toString()}`);
  }
}

test("npm start on a fresh clone serves the editor, and again with nothing to install", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-start-"));
  const clone = join(dir, "memdoc");
  let served;
  try {
    execFileSync("git", ["clone", "--quiet", root, clone]);
    served = await start(clone, t);
    const { url } = served;
    // The editor's parts only: the test tools are `npm test`'s.
    assert.match(served.printed(), /^setup: for start: wasm32 npm wasm-bindgen$/m);
    assert.doesNotMatch(served.printed(), /chromium|schemathesis|distill/i);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type"), /^text\/html/);
    const html = await page.text();
    assert.match(html, /<title>[^<]*memdoc[^<]*<\/title>/, "the page should be the memdoc editor");
    assert.match(html, /data-testid="editor"/, "the page should hold the editor");
    const script = html.match(/<script type="module"[^>]* src="\.?\/?([^"]+)"/)?.[1];
    assert.ok(script, "the page should load its bundled module");
    const module = await fetch(new URL(script, url));
    assert.equal(module.status, 200, `${script} should be served`);
    assert.match(module.headers.get("content-type"), /javascript/);
    const wasm = (await module.text()).match(/[\w-]+\.wasm(?=[`"'])/)?.[0];
    assert.ok(wasm, "the bundle should reference the package's wasm as a local asset");
    const binary = await fetch(new URL(wasm, new URL(script, url)));
    assert.equal(binary.status, 200, `${wasm} should be served`);
    assert.equal(binary.headers.get("content-type"), "application/wasm");

    await served.stop();
    served = await start(clone, t);
    assert.match(served.printed(), /^setup: wasm32: present$/m);
    assert.match(served.printed(), /^setup: npm: present$/m);
    assert.equal((await fetch(served.url)).status, 200);
  } finally {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
