#!/usr/bin/env node
// `npm test`: every check. A step starts once the steps it needs have passed
// and the steps before it in its lane are done; the lanes run side by side
// (MEMDOC_TEST_JOBS=1: one step at a time, in list order). Each step's output
// is buffered and printed whole when it ends, so the log reads step by step,
// and a summary lists every step with its time. The first failure stops the
// run: the steps still running are stopped, and the exit code is 1.
//
// To add a check, add a step to its lane: { lane, name, command, args, after }.
//
// `node scripts/test.mjs WORD…` runs only the steps named like a WORD, and
// the steps they need.
import { spawn } from "node:child_process";
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

// Two lanes, each running its steps one at a time in list order, beside each
// other. "rust": the Rust checks, which share target/debug (Cargo lets one
// build use it at a time). "js": the package and everything that runs it;
// these start runtimes, browsers or builds, and two of them at once on two
// cores made timing-bound tests (8 writers racing through workerd) fail.
// `after` names the steps a step needs, in any lane.
const steps = [
  // The release wasm build uses target/release, not the Rust lane's target/debug.
  { lane: "js", name: "build pkg/", command: "node", args: ["scripts/build.mjs"] },
  { lane: "js", name: "tsc --noEmit", command: "tsc", args: ["--noEmit", "-p", "test-js/tsconfig.json"], after: ["build pkg/"] },
  { lane: "js", name: "build www/", command: "node", args: ["scripts/build-www.mjs"], after: ["build pkg/"] },
  { lane: "js", name: "e2e (Chromium)", command: "node", args: () => ["--test", ...testsIn("e2e")], after: ["build www/"] },
  {
    lane: "js",
    name: "node --test",
    command: "node",
    args: () => ["--test", ...testsIn("test-js")],
    after: ["build pkg/", "build the test-panic variant", "build the CLI"],
  },
  // The hub's HTTP suite against the Worker in workerd and the Deno server,
  // each started for real on 127.0.0.1, then the check that no request log
  // line of the run holds a secret or memory content (hub/test/suite.mjs).
  {
    lane: "js",
    name: "hub: workerd and Deno",
    command: "node",
    args: ["hub/test/suite.mjs"],
    after: ["build pkg/"],
  },
  // Schemathesis (PyPI, from scripts/setup) against both targets: every
  // operation of hub/openapi.json with --checks all, a fixed seed and a
  // bounded number of examples; `npm run fuzz:hub` runs a long one.
  {
    lane: "js",
    name: "hub: schemathesis",
    command: "node",
    args: ["hub/fuzz/run.mjs", "--max-examples", "12", "--seed", "43"],
    after: ["build pkg/"],
  },

  // Real Chromium, real workerd (bundled by wrangler), real Deno; one at a
  // time, since each starts a runtime. A runtime that cannot start fails.
  // Last, once the Rust lane is done: its 8 writers racing through workerd
  // over Worker requests failed ("fetch failed") while a cold Rust build
  // shared the 2 cores.
  {
    lane: "js",
    name: "runtimes: chromium, deno, workerd",
    command: "node",
    args: () => ["--test", "--test-concurrency=1", ...testsIn("test-js", "runtimes")],
    after: ["build pkg/", "fuzz smoke"],
  },

  { lane: "rust", name: "rustfmt", command: "cargo", args: ["fmt", "--check"] },
  // --workspace: with the npm module (bindings/wasm/, memdoc-wasm), the
  // `memdoc` command (cli/, memdoc-cli; cli/wasm/, memdoc-cli-wasm) and the
  // embedders (embedders/, memdoc-bert, memdoc-minilm, memdoc-e5).
  { lane: "rust", name: "clippy (native)", command: "cargo", args: ["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"] },
  {
    lane: "rust",
    name: "clippy (wasm32)",
    command: "cargo",
    // The npm module (bindings/wasm/, memdoc-wasm), the bin's module
    // (cli/wasm/, memdoc-cli-wasm) with the command line's engine
    // (memdoc-cli's library, linted as its dependency); the command's
    // binary and its tests are native only, hence the exclude.
    args: ["clippy", "--workspace", "--exclude", "memdoc-cli", "--target", "wasm32-unknown-unknown", "--lib", "--tests", "--", "-D", "warnings"],
  },
  {
    lane: "rust",
    name: "build the test-panic variant",
    command: "node",
    args: ["scripts/build.mjs", "--test-panic", "--out", "target/pkg-test-panic"],
  },
  // The `memdoc` binary the CLI tests of "node --test" run (test-js/cli*.test.mjs).
  { lane: "rust", name: "build the CLI", command: "cargo", args: ["build", "-p", "memdoc-cli"] },
  // The whole workspace: the MiniLM embedder against its reference vectors
  // with the weights scripts/setup fetched (optimised even in the test
  // profile: Cargo.toml), and the command line.
  { lane: "rust", name: "cargo test", command: "cargo", args: ["test", "--workspace"] },
  // The npm module's tests/wasm.rs (bindings/wasm/) in Node: Cargo runs the
  // test module with wasm-bindgen's test runner (wasm-bindgen-cli's, at the
  // version Cargo.lock pins).
  {
    lane: "rust",
    name: "wasm-bindgen-test in Node",
    command: "cargo",
    args: ["test", "-p", "memdoc-wasm", "--target", "wasm32-unknown-unknown", "--test", "wasm"],
    env: { CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER: "wasm-bindgen-test-runner" },
  },
  // Every fuzz target over its committed seeds, then 5 s of fuzzing each
  // (nightly, its own target dir under fuzz/); `npm run fuzz` runs long.
  { lane: "rust", name: "fuzz smoke", command: "node", args: ["scripts/fuzz.mjs", "all", "--smoke"] },
];

for (const step of steps) {
  for (const need of step.after ?? []) {
    if (!steps.some((s) => s.name === need)) throw new Error(`step "${step.name}" needs an unknown step "${need}"`);
  }
  step.state = "waiting";
}

const wanted = process.argv.slice(2);
if (wanted.length) {
  const keep = new Set();
  const add = (step) => {
    if (keep.has(step)) return;
    keep.add(step);
    for (const need of step.after ?? []) add(steps.find((s) => s.name === need));
  };
  for (const word of wanted) {
    const matches = steps.filter((s) => s.name.includes(word));
    if (!matches.length) throw new Error(`no step is named like "${word}"`);
    matches.forEach(add);
  }
  steps.splice(0, steps.length, ...steps.filter((s) => keep.has(s)));
}

const jobs = Math.max(1, Number(process.env.MEMDOC_TEST_JOBS) || 2);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Run one step in its own process group, its output (stdout and stderr, interleaved) kept. */
function start(step) {
  const argv = typeof step.args === "function" ? step.args() : step.args;
  step.line = `${step.command} ${argv.join(" ")}`;
  step.state = "running";
  step.started = Date.now();
  step.output = [];
  console.log(`== start: ${step.name}`);
  const child = spawn(step.command, argv, { cwd: root, env: { ...env, ...step.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  step.child = child;
  child.stdout.on("data", (chunk) => step.output.push(chunk));
  child.stderr.on("data", (chunk) => step.output.push(chunk));
  return new Promise((done) => {
    child.on("error", (error) => {
      step.failure = error.message;
      done(step);
    });
    child.on("close", (code, signal) => {
      if (code !== 0 && !step.failure) step.failure = signal ? `killed by ${signal}` : `exit ${code}`;
      done(step);
    });
  });
}

function report(step) {
  step.ms = Date.now() - step.started;
  const output = Buffer.concat(step.output).toString("utf8");
  console.log(`\n== ${step.name}: ${step.line}`);
  if (output) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
  if (step.failure) console.error(`== FAILED: ${step.name} (${step.failure}, ${seconds(step.ms)})`);
  else console.log(`== ok: ${step.name} (${seconds(step.ms)})`);
}

const running = new Map();

/** Stop every running step (its whole process group). */
function stopRunning() {
  for (const other of running.keys()) {
    other.state = "stopped";
    other.ms = Date.now() - other.started;
    try {
      process.kill(-other.child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopRunning();
    process.exit(130);
  });
}

let failed = null;
const runStarted = Date.now();
while (true) {
  if (!failed) {
    for (const step of steps) {
      if (running.size >= jobs) break;
      const ready =
        step.state === "waiting" &&
        (step.after ?? []).every((n) => steps.find((s) => s.name === n).state === "ok") &&
        steps.slice(0, steps.indexOf(step)).every((s) => s.lane !== step.lane || s.state === "ok");
      if (ready) running.set(step, start(step));
    }
  }
  if (running.size === 0) break;
  const step = await Promise.race(running.values());
  running.delete(step);
  if (step.state === "stopped") continue;
  step.state = step.failure ? "failed" : "ok";
  report(step);
  if (step.failure && !failed) {
    failed = step;
    stopRunning();
  }
}

console.log("\n== summary");
for (const step of steps) {
  const time = step.ms === undefined ? "" : ` (${seconds(step.ms)})`;
  const label = { ok: "ok", failed: "FAILED", stopped: "stopped", waiting: "not run" }[step.state];
  console.log(`   ${label.padEnd(7)} ${step.name}${time}`);
}
const stuck = steps.filter((step) => step.state === "waiting");
if (!failed && stuck.length) {
  console.error(`\n== FAILED: never started (a step waits for one after it in its lane): ${stuck.map((step) => step.name).join(", ")}`);
  process.exit(1);
}
if (failed) {
  console.error(`\n== FAILED: ${failed.name}; total ${seconds(Date.now() - runStarted)}`);
  process.exit(1);
}
console.log(`\n== all checks passed in ${seconds(Date.now() - runStarted)}`);
