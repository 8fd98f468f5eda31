#!/usr/bin/env node
// `npm test`: every check, in order, stopping at the first failure. To add a
// check, add a step: [name, command, args].
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  PATH: [join(root, "node_modules", ".bin"), join(homedir(), ".cargo", "bin"), process.env.PATH].join(delimiter),
};
// The node:test files of one folder, sorted.
const testsIn = (...dir) =>
  readdirSync(join(root, ...dir))
    .filter((f) => f.endsWith(".test.mjs"))
    .sort()
    .map((f) => join(...dir, f));

const steps = [
  ["rustfmt", "cargo", ["fmt", "--check"]],
  ["clippy (native)", "cargo", ["clippy", "--all-targets", "--", "-D", "warnings"]],
  ["clippy (wasm32)", "cargo", ["clippy", "--target", "wasm32-unknown-unknown", "--lib", "--tests", "--", "-D", "warnings"]],
  ["cargo test", "cargo", ["test"]],
  ["wasm-bindgen-test in Node", "wasm-pack", ["test", "--node", "--mode", "no-install", "--", "--test", "wasm"]],
  ["build pkg/", "node", ["scripts/build.mjs"]],
  ["build the test-panic variant", "node", ["scripts/build.mjs", "--test-panic", "--out", "target/pkg-test-panic"]],
  ["node --test", "node", () => ["--test", ...testsIn("test-js")]],
  // Real Chromium, real workerd (bundled by wrangler), real Deno; one at a
  // time, since each starts a runtime. A runtime that cannot start fails.
  ["runtimes: chromium, deno, workerd", "node", () => ["--test", "--test-concurrency=1", ...testsIn("test-js", "runtimes")]],
  ["tsc --noEmit", "tsc", ["--noEmit", "-p", "test-js/tsconfig.json"]],
  ["build www/", "node", ["scripts/build-www.mjs"]],
  ["e2e (Chromium)", "node", () => ["--test", ...testsIn("e2e")]],
  // The hub's HTTP suite against the Worker in workerd and the Deno server,
  // each started for real on 127.0.0.1 (global WebSocket: the flag is for Node 20).
  ["hub: workerd and Deno", "node", () => ["--experimental-websocket", "--test", "--test-concurrency=1", ...testsIn("hub", "test")]],
];

for (const [name, command, args] of steps) {
  const argv = typeof args === "function" ? args() : args;
  console.log(`\n== ${name}: ${command} ${argv.join(" ")}`);
  const started = Date.now();
  const { status, error } = spawnSync(command, argv, { cwd: root, env, stdio: "inherit" });
  if (error || status !== 0) {
    console.error(`\n== FAILED: ${name} (${error?.message ?? `exit ${status}`})`);
    process.exit(1);
  }
  console.log(`== ok: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
console.log("\n== all checks passed");
