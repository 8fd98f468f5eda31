#!/usr/bin/env node
// `npm run fuzz -- [TARGET|all] [SECONDS] [--smoke]`: build the cargo-fuzz
// targets of fuzz/ with libFuzzer's instrumentation (nightly; the same flags
// `cargo fuzz build` passes, so cargo-fuzz itself is not needed) and run
// each for SECONDS (default 60). The committed seeds (fuzz/seeds/TARGET) are
// read; new inputs go to fuzz/corpus/TARGET and findings to
// fuzz/artifacts/TARGET (both ignored by git). Prints each target's
// executions. `--smoke` runs every seed once and then fuzzes SECONDS
// (default 5) from a fixed random seed, for a quick check; `npm test` runs
// it (all targets) when the nightly toolchain is installed, and says so
// when it is not.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const fuzz = join(root, "fuzz");
const triple = "x86_64-unknown-linux-gnu";
const targets = ["round_trip", "merge", "compact", "store", "records", "recall", "expire"];

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const [which = "all", secondsArg] = args.filter((a) => a !== "--smoke");
const seconds = Number(secondsArg ?? (smoke ? 5 : 60));
if (!Number.isInteger(seconds) || seconds < 0) throw new Error(`SECONDS must be a whole number, not ${secondsArg}`);
const chosen = which === "all" ? targets : [which];
for (const t of chosen) if (!targets.includes(t)) throw new Error(`unknown target ${t}; one of ${targets.join(", ")} or all`);

const env = {
  ...process.env,
  PATH: [join(homedir(), ".cargo", "bin"), process.env.PATH].join(delimiter),
  RUSTFLAGS: [
    "--cfg fuzzing",
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "-Cdebug-assertions",
    "-Coverflow-checks",
  ].join(" "),
};

// libFuzzer logs every new input: a long run writes far more than
// spawnSync's default 1 MB buffer (which would kill it).
const run = (command, argv, options = {}) => {
  const r = spawnSync(command, argv, { cwd: fuzz, env, encoding: "utf8", maxBuffer: 1 << 30, ...options });
  if (r.error) throw r.error;
  return r;
};

if (smoke && !/^nightly/m.test(spawnSync("rustup", ["toolchain", "list"], { env, encoding: "utf8" }).stdout ?? "")) {
  console.log("fuzz smoke skipped: the nightly toolchain is not installed (rustup toolchain install nightly)");
  process.exit(0);
}

const build = run("cargo", ["+nightly", "build", "--release", "--bins", "--target", triple], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = false;
for (const target of chosen) {
  const seeds = join(fuzz, "seeds", target);
  const corpus = join(fuzz, "corpus", target);
  const artifacts = join(fuzz, "artifacts", target);
  for (const dir of [corpus, artifacts]) mkdirSync(dir, { recursive: true });
  const binary = join(fuzz, "target", triple, "release", target);
  const started = Date.now();
  const r = run(binary, [
    corpus,
    seeds,
    `-max_total_time=${seconds}`,
    "-max_len=8192",
    "-timeout=10",
    "-rss_limit_mb=2048",
    `-artifact_prefix=${artifacts}/`,
    "-print_final_stats=1",
    ...(smoke ? ["-seed=1"] : []),
  ]);
  const log = r.stderr;
  const runs = /stat::number_of_executed_units:\s*(\d+)/.exec(log)?.[1] ?? "?";
  const elapsed = ((Date.now() - started) / 1000).toFixed(0);
  const findings = readdirSync(artifacts);
  console.log(`${target}: ${runs} executions in ${elapsed} s, ${readdirSync(seeds).length} seeds, corpus ${readdirSync(corpus).length}, exit ${r.status}`);
  if (r.status !== 0) {
    failed = true;
    console.log(log.split("\n").slice(-60).join("\n"));
    console.log(`${target}: findings in ${artifacts}: ${findings.join(", ")}`);
  }
}
process.exit(failed ? 1 : 0);
