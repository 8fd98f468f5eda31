#!/usr/bin/env node
// `npm run bench:start`: `npm start` as the first command on a fresh
// clone, then a second `npm start` with nothing changed, each timed from
// the command to the editor's URL (BENCHMARKS.md, "First run"). The clone
// is of this checkout's HEAD (committed work only).
//
// As a fresh machine of the project's kind has them: Rust's toolchains
// (rustup's, with the wasm32 target) and Node, nothing else. The clone gets
// a home of its own (HOME, CARGO_HOME: no wasm-bindgen-cli, no crates
// downloaded yet), an empty npm cache and an empty Cargo target folder, and
// a PATH with only Node and rustup's proxies. Everything it needs comes
// from the registries, as on a fresh machine.
//
// The machine's load average is printed before and after: on a shared
// machine the figures are only as good as the load beside them.
//
//   node bench/start.mjs [--keep DIR]   --keep: the run's folder
//                                               is left for a look
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { homedir, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({ options: { keep: { type: "string" } } });
const dir = args.keep ? resolve(args.keep) : mkdtempSync(join(tmpdir(), "memdoc-bench-start-"));
const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");

/** Run `npm start` in `clone` until it prints its URL: the seconds it took, and its output. */
function start(clone, env) {
  return new Promise((done, failed) => {
    const began = Date.now();
    const child = spawn("npm", ["start"], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const seen = (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
      if (/memdoc editor: http:\/\/127\.0\.0\.1:\d+\//.test(out)) {
        const seconds = (Date.now() - began) / 1000;
        child.removeAllListeners("exit");
        child.once("exit", () => done({ seconds, out }));
        process.kill(-child.pid, "SIGTERM");
      }
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("exit", (code) => failed(new Error(`npm start exited (${code}) before printing its URL`)));
  });
}

async function main() {
  const clone = join(dir, "memdoc");
  const home = join(dir, "home");
  const bin = join(dir, "bin");
  for (const d of [home, bin]) mkdirSync(d, { recursive: true });
  // Node and rustup's proxies only.
  for (const tool of ["cargo", "rustc", "rustup", "rustdoc", "rustfmt", "cargo-clippy", "clippy-driver"]) {
    symlinkSync(join(homedir(), ".cargo", "bin", tool), join(bin, tool));
  }
  for (const tool of ["node", "npm", "npx"]) symlinkSync(join(dirname(process.execPath), tool), join(bin, tool));
  const { spawnSync } = await import("node:child_process");
  spawnSync("git", ["clone", "--quiet", root, clone], { stdio: "inherit" });
  const env = {
    PATH: [bin, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    HOME: home,
    CARGO_HOME: join(home, ".cargo"),
    RUSTUP_HOME: process.env.RUSTUP_HOME || join(homedir(), ".rustup"),
    RUSTUP_TOOLCHAIN: process.env.RUSTUP_TOOLCHAIN || "stable",
    npm_config_cache: join(dir, "npm-cache"),
    PORT: "0",
    LANG: "C.UTF-8",
  };
  console.log(`bench-start: load average before: ${load()} (1, 5, 15 min); ${dir}`);
  const first = await start(clone, env);
  const afterFirst = load();
  const second = await start(clone, env);
  console.log(`\nbench-start: first npm start on a fresh clone: ${first.seconds.toFixed(0)} s to the URL (load average after it: ${afterFirst})`);
  console.log(`bench-start: second npm start, nothing changed: ${second.seconds.toFixed(1)} s to the URL (load average after it: ${load()})`);
  for (const line of first.out.split("\n").filter((l) => /^setup: |^start: /.test(l))) console.log(`  first run: ${line}`);
}

main()
  .catch((error) => {
    console.error(`bench-start: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  });
