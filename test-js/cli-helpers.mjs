// The two front ends of the `memdoc` command (docs/CLI.md): the Rust binary
// that `cargo build -p memdoc-cli` leaves in target/debug (the "build the
// CLI" step of scripts/test.mjs), and the npm package's bin in pkg/.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { pkgDir, root } from "./helpers.mjs";

const rustBinary = join(root, "target", "debug", "memdoc");
const npmBin = join(pkgDir, "cli.js");

/** Each front end as `[name, argv prefix]`. */
export function frontEnds() {
  assert.ok(existsSync(rustBinary), `${rustBinary} is missing: run \`cargo build -p memdoc-cli\``);
  assert.ok(existsSync(npmBin), `${npmBin} is missing: run \`node scripts/build.mjs\``);
  return [
    ["rust", [rustBinary]],
    ["npm", [process.execPath, npmBin]],
  ];
}

/** The command line that runs front end `prefix` with `args`, for a shell (git's driver, `script`). */
export function commandLine(prefix, args = []) {
  return [...prefix, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
}

/**
 * Run a front end: `{ stdout, stderr, status }`.
 * @param {string[]} prefix
 * @param {string[]} args
 * @param {{ cwd?: string, input?: string | Buffer, env?: Record<string, string | undefined> }} [o]
 */
export function run(prefix, args, o = {}) {
  const env = { ...process.env, ...o.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const done = spawnSync(prefix[0], [...prefix.slice(1), ...args], {
    cwd: o.cwd ?? root,
    input: o.input ?? "",
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (done.error) throw done.error;
  return { stdout: done.stdout, stderr: done.stderr, status: done.status };
}

/**
 * `run` without blocking the event loop (for a server in this process's
 * care, such as the hub in workerd started through Miniflare).
 */
export function runAsync(prefix, args, o = {}) {
  const env = { ...process.env, ...o.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(prefix[0], [...prefix.slice(1), ...args], { cwd: o.cwd ?? root, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    // A command that exits before reading its input closes the pipe: the
    // write's EPIPE is not the test's failure (its status and output are).
    child.stdin.on("error", (error) => error.code !== "EPIPE" && reject(error));
    child.on("close", (status) => resolve({ stdout, stderr, status }));
    child.stdin.end(o.input ?? "");
  });
}

/**
 * A new git repository in a folder under `parent`, on branch main, with
 * `memdoc merge %O %A %B %P` of front end `driver` (a command line) as the
 * merge driver of MEMORY.md files, as docs/CLI.md sets it up, or plain
 * git: `{ repo, git, ok }`, `git` running a command there, `ok` asserting
 * it succeeds.
 */
export function gitRepository(parent, driver) {
  const repo = mkdtempSync(join(parent, "repo-"));
  const git = (...args) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo, encoding: "utf8" });
  const ok = (...args) => {
    const done = git(...args);
    assert.equal(done.status, 0, `git ${args.join(" ")}: ${done.stderr}`);
  };
  ok("init", "-q", "-b", "main");
  if (driver) {
    writeFileSync(join(repo, ".gitattributes"), "MEMORY.md merge=memdoc\n");
    ok("config", "merge.memdoc.driver", `${driver} merge %O %A %B %P`);
  }
  return { repo, git, ok };
}

/**
 * A request to the hub at `url` with `key`: a string body is Markdown,
 * anything else JSON. `{ status, json }`.
 */
export async function hubCall(url, method, path, key, body, headers = {}) {
  const response = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "text/markdown" : "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}
