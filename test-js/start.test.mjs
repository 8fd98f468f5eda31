// `npm start` as the very first command after `git clone`: a clone of this
// checkout's HEAD (committed work only; no node_modules, pkg/ or www/dist)
// sets itself up, builds the package and the editor, prints its URL and
// serves the editor. The clone builds Rust into a folder of its own under
// this checkout's target/ (kept between runs) and installs npm packages from
// npm's cache, like a second checkout on a developer's machine. Its own
// folder, because Cargo tells a build is fresh by file times: a clone of
// HEAD building into this checkout's target/ would leave there a build that
// Cargo then takes for one of the uncommitted sources.
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

test("npm start on a fresh clone serves the editor", { timeout: 15 * 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-start-"));
  const clone = join(dir, "memdoc");
  const log = [];
  let child;
  try {
    execFileSync("git", ["clone", "--quiet", root, clone]);
    const started = Date.now();
    child = spawn("npm", ["start"], {
      cwd: clone,
      env: { ...process.env, PORT: "0", CARGO_TARGET_DIR: join(root, "target", "fresh-clone") },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let url;
    try {
      [, url] = await waitForOutput(child, /memdoc editor: (http:\/\/127\.0\.0\.1:\d+\/)/, log);
    } catch (error) {
      throw new Error(`${error.message}; its output:\n${Buffer.concat(log.map((c) => Buffer.from(c))).toString()}`);
    }
    t.diagnostic(`npm start printed its URL after ${((Date.now() - started) / 1000).toFixed(1)} s`);

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

    process.kill(-child.pid, "SIGTERM");
    await exited;
    child = null;
  } finally {
    if (child) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
