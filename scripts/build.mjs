#!/usr/bin/env node
// Build the npm package: each crate for wasm32 with Cargo, its glue made by
// wasm-bindgen (web target) and its module optimised by wasm-opt with the
// flags of its Cargo.toml, into a scratch directory; then the package
// directory assembled from the glue, the wasm and pkg-template/ (entries,
// types, README, LICENSE), with the version taken from Cargo.toml. Prints
// the .wasm's raw and gzip sizes. Then the MiniLM embedder (embedders/minilm/)
// as its own module in embedders/minilm/, with the model's tokenizer.json and
// NOTICE; the files of weight go to packages of their own
// (pkg-template/@memdoc/): the model's weights packed to f16 from
// target/models/ in pkg-minilm/ (@memdoc/minilm), the static table in
// pkg-static/ (@memdoc/static); `bash scripts/setup embedders` makes both.
//
//   node scripts/build.mjs                  release build into pkg/, the
//                                           bin's module into pkg/cli/, and
//                                           pkg-minilm/ and pkg-static/
//   node scripts/build.mjs --core           the package without the bin's
//                                           module and the embedders' files
//                                           (what the editor's first page
//                                           needs; `npm start`), keeping
//                                           those of the last build
//   node scripts/build.mjs --rest           only the bin's module and the
//                                           embedders' files, into a pkg/
//                                           already built, and pkg-minilm/
//                                           and pkg-static/
//   node scripts/build.mjs --test-panic --out <dir>
//                                           dev build with the `test-panic`
//                                           feature, for the panic tests and
//                                           test-js/parse-literal.test.mjs only
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: join(root, "pkg") },
    "test-panic": { type: "boolean", default: false },
    core: { type: "boolean", default: false },
    rest: { type: "boolean", default: false },
  },
});
const testPanic = args["test-panic"];
const out = resolve(args.out);
const scratch = join(root, "target", "wasm-build", testPanic ? "test-panic" : "release");

// wasm-opt comes from the npm package binaryen (Debian's is broken here);
// wasm-bindgen from ~/.cargo/bin (scripts/setup installs the version
// Cargo.lock pins).
const env = {
  ...process.env,
  PATH: [join(root, "node_modules", ".bin"), join(homedir(), ".cargo", "bin"), process.env.PATH].join(
    delimiter,
  ),
};

/** The wasm-opt flags of a crate's Cargo.toml (`[package.metadata.wasm-pack.profile.release]`, the section wasm-pack reads too). */
function wasmOptFlags(crate) {
  const manifest = readFileSync(join(crate, "Cargo.toml"), "utf8");
  const section = manifest.split(/^\[/m).find((s) => s.startsWith("package.metadata.wasm-pack.profile.release]"));
  const list = section?.match(/^wasm-opt\s*=\s*(\[[^\]]*\])/m)?.[1];
  if (!list) throw new Error(`${join(crate, "Cargo.toml")}: no wasm-opt flags`);
  return JSON.parse(list);
}

/**
 * The web-target build of the crate in `crate` into `dir` as `name`.js and
 * `name`_bg.wasm: `cargo build` for wasm32 (release, or dev for the
 * test-panic variant), wasm-bindgen, then wasm-opt (release only), the steps
 * wasm-pack takes, without it. The glue and the optimised module are made
 * again only when Cargo's module or the flags changed (a stamp in `dir`):
 * a second `npm start` with nothing changed does not wait for wasm-opt.
 */
function wasmBuild({ crate, lib, name, dir, features = [], targetDir = process.env.CARGO_TARGET_DIR || join(root, "target"), extraEnv = {} }) {
  const buildEnv = { ...env, ...extraEnv, CARGO_TARGET_DIR: targetDir };
  execFileSync(
    "cargo",
    ["build", "--lib", ...(testPanic ? [] : ["--release"]), "--target", "wasm32-unknown-unknown", ...(features.length ? ["--features", features.join(",")] : [])],
    { cwd: crate, stdio: "inherit", env: buildEnv },
  );
  const built = join(targetDir, "wasm32-unknown-unknown", testPanic ? "debug" : "release", `${lib}.wasm`);
  const bindgen = [built, "--out-dir", dir, "--target", "web", "--out-name", name, ...(testPanic ? ["--debug"] : [])];
  const opt = testPanic ? [] : wasmOptFlags(crate);
  const stamp = createHash("sha256").update(readFileSync(built)).update(JSON.stringify([bindgen, opt])).digest("hex");
  if (existsSync(join(dir, `${name}_bg.wasm`)) && existsSync(join(dir, ".stamp")) && readFileSync(join(dir, ".stamp"), "utf8") === stamp) return;
  rmSync(dir, { recursive: true, force: true });
  execFileSync("wasm-bindgen", bindgen, { stdio: "inherit", env: buildEnv });
  if (!testPanic) {
    const wasm = join(dir, `${name}_bg.wasm`);
    execFileSync("wasm-opt", [wasm, "-o", `${wasm}.opt`, ...opt], { stdio: "inherit", env: buildEnv });
    renameSync(`${wasm}.opt`, wasm);
  }
  writeFileSync(join(dir, ".stamp"), stamp);
}

/**
 * guarded.js: every function the glue `source` exports (its internals, named
 * `__…`, apart), each guarded (pkg-template/panic.js), so that no export of
 * the module goes out unguarded.
 */
function guardedModule(source) {
  const names = [...source.matchAll(/^export function ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]).filter((name) => !name.startsWith("__"));
  if (names.length === 0) throw new Error("memdoc.js exports no function: wasm-bindgen's glue changed shape");
  return [
    "// Generated by scripts/build.mjs from memdoc.js's exports: do not edit.",
    "// Each function of the module, guarded so that a Rust panic throws an",
    "// `internal/panic` Error (panic.js).",
    'import * as glue from "./memdoc.js";',
    'import { guard } from "./panic.js";',
    "",
    ...names.map((name) => `export const ${name} = guard(glue.${name});`),
    "",
  ].join("\n");
}

function cargoVersion() {
  const manifest = readFileSync(join(root, "Cargo.toml"), "utf8");
  const pkg = manifest.split(/^\[/m).find((section) => section.startsWith("package]"));
  const version = pkg?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!version) throw new Error("Cargo.toml: no [package] version");
  return version;
}

if (args.core && args.rest) throw new Error("--core and --rest are each a part of the whole build: give one or neither");
if (args.rest && !existsSync(join(out, "package.json"))) throw new Error(`${out} is not built: run node scripts/build.mjs --core first`);
// What --rest builds into pkg/: kept from the last build by --core.
const restParts = ["cli", join("embedders", "minilm")];
const template = join(root, "pkg-template");
let manifest = null;
if (!args.rest) {
  wasmBuild({ crate: join(root, "bindings", "wasm"), lib: "memdoc_wasm", name: "memdoc", dir: scratch, features: testPanic ? ["test-panic"] : [] });

  // --core keeps what --rest built last, so that the editor keeps recall
  // by meaning and `npx memdoc` works while --rest runs.
  const kept = join(root, "target", "wasm-build", "kept");
  rmSync(kept, { recursive: true, force: true });
  for (const part of args.core ? restParts : []) {
    if (!existsSync(join(out, part))) continue;
    mkdirSync(dirname(join(kept, part)), { recursive: true });
    renameSync(join(out, part), join(kept, part));
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of ["memdoc.js", "memdoc.d.ts", "memdoc_bg.wasm", "memdoc_bg.wasm.d.ts"]) {
    cpSync(join(scratch, file), join(out, file));
  }
  // The JavaScript modules the Rust code imports (bindings/wasm/src/wire/*/*.js and src/wasm/*.js).
  cpSync(join(scratch, "snippets"), join(out, "snippets"), { recursive: true });
  for (const part of restParts) {
    if (!existsSync(join(kept, part))) continue;
    mkdirSync(dirname(join(out, part)), { recursive: true });
    renameSync(join(kept, part), join(out, part));
  }
  // pkg-template/@memdoc/ holds the embedders' packages of weight (below).
  for (const file of readdirSync(template)) {
    if (file !== "package.json" && file !== "@memdoc") cpSync(join(template, file), join(out, file), { recursive: true });
  }
  writeFileSync(join(out, "guarded.js"), guardedModule(readFileSync(join(out, "memdoc.js"), "utf8")));
  // The repository's NOTICE (the MiniLM model's license) travels with the package.
  cpSync(join(root, "NOTICE"), join(out, "NOTICE"));
  manifest = JSON.parse(readFileSync(join(template, "package.json"), "utf8"));
  manifest.version = cargoVersion();
  // The embedders' packages are released with the engine, at its version.
  for (const name of Object.keys(manifest.peerDependencies)) manifest.peerDependencies[name] = manifest.version;
  writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}
manifest ??= JSON.parse(readFileSync(join(out, "package.json"), "utf8"));

// The module of the package's bin (cli.js, docs/CLI.md): the CLI's crate
// for WebAssembly (cli/wasm/, the command line's engine with its `__cli…`
// exports, and memdoc's own), in pkg/cli/, so that the package's own module
// does not carry it. Not in test-panic builds.
if (!testPanic && !args.core) {
  const cliScratch = join(root, "target", "wasm-build", "release-cli");
  wasmBuild({ crate: join(root, "cli", "wasm"), lib: "memdoc_cli_wasm", name: "memdoc", dir: cliScratch });
  for (const file of ["memdoc.js", "memdoc_bg.wasm", "snippets"]) {
    cpSync(join(cliScratch, file), join(out, "cli", file), { recursive: true });
  }
}

/** An embedder's package of weight (pkg-template/@memdoc/<name>) assembled in `dir` with `files` ({ name: bytes }). */
function weightPackage(name, dir, files) {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(template, "@memdoc", name), dir, { recursive: true });
  const own = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  own.version = manifest.version;
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(own, null, 2)}\n`);
  cpSync(join(root, "embedders", "minilm", "NOTICE"), join(dir, "NOTICE"));
  for (const [file, bytes] of Object.entries(files)) {
    writeFileSync(join(dir, file), bytes);
    console.log(`${own.name}/${file}: ${bytes.length} bytes (${(bytes.length / 1024 / 1024).toFixed(1)} MiB)`);
  }
}

// The MiniLM embedder: its own crate and .wasm, built twice: with
// WebAssembly SIMD for its matrix products (minilm_bg.wasm), and without
// for hosts that lack it (minilm_nosimd_bg.wasm; embedders/wasm.js picks).
// Each build has its own target directory, so the flag does not rebuild
// the core's dependencies. Their JavaScript glue is the same: one is kept.
const embedders = join(out, "embedders");
if (!testPanic && !args.core) {
  const model = join(root, "target", "models", "all-MiniLM-L6-v2");
  for (const file of ["model.safetensors", "tokenizer.json"]) {
    if (!existsSync(join(model, file))) throw new Error(`${join(model, file)} is missing: run bash scripts/setup embedders`);
  }
  const minilmBuild = (name, rustflags) => {
    const dir = join(root, "target", "wasm-build", name);
    wasmBuild({
      crate: join(root, "embedders", "minilm"),
      lib: "memdoc_minilm",
      name: "minilm",
      dir,
      targetDir: join(root, "target", `${name}-wasm`),
      extraEnv: { RUSTFLAGS: rustflags },
    });
    return dir;
  };
  const minilmScratch = minilmBuild("minilm", "-C target-feature=+simd128");
  const scalarScratch = minilmBuild("minilm-nosimd", "");
  if (readFileSync(join(minilmScratch, "minilm.js"), "utf8") !== readFileSync(join(scalarScratch, "minilm.js"), "utf8")) {
    throw new Error("the MiniLM module's glue differs with and without SIMD");
  }
  const dir = join(embedders, "minilm");
  mkdirSync(dir, { recursive: true });
  for (const file of ["minilm.js", "minilm.d.ts", "minilm_bg.wasm", "minilm_bg.wasm.d.ts"]) {
    cpSync(join(minilmScratch, file), join(dir, file));
  }
  cpSync(join(scalarScratch, "minilm_bg.wasm"), join(dir, "minilm_nosimd_bg.wasm"));
  cpSync(join(root, "embedders", "minilm", "NOTICE"), join(dir, "NOTICE"));
  cpSync(join(model, "tokenizer.json"), join(dir, "tokenizer.json"));
  for (const file of ["minilm_bg.wasm", "minilm_nosimd_bg.wasm", "tokenizer.json"]) {
    const bytes = statSync(join(dir, file)).size;
    console.log(`embedders/minilm/${file}: ${bytes} bytes (${(bytes / 1024 / 1024).toFixed(1)} MiB)`);
  }
  const glue = await import(pathToFileURL(join(dir, "minilm.js")).href);
  glue.initSync({ module: readFileSync(join(dir, "minilm_bg.wasm")) });
  weightPackage("minilm", join(root, "pkg-minilm"), {
    "model.fp16.safetensors": glue.packF16(readFileSync(join(model, "model.safetensors"))),
  });
  // The multilingual-e5-small embedder: its own crate and .wasm, code only
  // (the 72 MB model file is the host's to give: e5Embedder({ model })).
  const e5Scratch = join(root, "target", "wasm-pack", "e5");
  rmSync(e5Scratch, { recursive: true, force: true });
  execFileSync(
    "wasm-pack",
    ["build", "--release", "--mode", "no-install", "--target", "web", "--no-pack", "--out-name", "e5", "--out-dir", e5Scratch, join(root, "embedders", "e5")],
    { stdio: "inherit", env: { ...env, CARGO_TARGET_DIR: join(root, "target", "minilm-wasm"), RUSTFLAGS: "-C target-feature=+simd128" } },
  );
  mkdirSync(join(embedders, "e5"), { recursive: true });
  for (const file of ["e5.js", "e5.d.ts", "e5_bg.wasm", "e5_bg.wasm.d.ts"]) cpSync(join(e5Scratch, file), join(embedders, "e5", file));
  cpSync(join(root, "embedders", "e5", "NOTICE"), join(embedders, "e5", "NOTICE"));
  console.log(`embedders/e5/e5_bg.wasm: ${statSync(join(embedders, "e5", "e5_bg.wasm")).size} bytes`);
  // The static embedder's table, distilled by setup (embedders/minilm/src/distill.rs)
  // and checked here again against its committed SHA-256.
  const tableName = "all-MiniLM-L6-v2-static-256.i8";
  const table = join(root, "target", "models", "static", tableName);
  if (!existsSync(table)) throw new Error(`${table} is missing: run bash scripts/setup embedders`);
  const tableBytes = readFileSync(table);
  const sha = createHash("sha256").update(tableBytes).digest("hex");
  const expected = readFileSync(join(root, "embedders", "minilm", "static.sha256"), "utf8").split(/\s+/)[0];
  if (sha !== expected) throw new Error(`${table}: sha256 ${sha}, not ${expected} (embedders/minilm/static.sha256): run bash scripts/setup embedders`);
  weightPackage("static", join(root, "pkg-static"), { [tableName]: tableBytes });
}

// The package's bin for `npx memdoc` in this repository: `npm ci` links a
// bin only for a package that exists when it runs, and pkg/ is made here.
if (out === join(root, "pkg") && !testPanic) {
  const bin = join(root, "node_modules", ".bin", "memdoc");
  if (existsSync(join(root, "node_modules", "memdoc"))) {
    chmodSync(join(out, manifest.bin.memdoc), 0o755);
    rmSync(bin, { force: true });
    symlinkSync(join("..", "memdoc", manifest.bin.memdoc), bin);
  }
}
const wasm = readFileSync(join(out, "memdoc_bg.wasm"));
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `memdoc ${manifest.version} -> ${out}\n` +
    `memdoc_bg.wasm: ${wasm.length} bytes raw (${kb(wasm.length)}), ` +
    `${gzipSync(wasm, { level: 9 }).length} bytes gzip -9 (${kb(gzipSync(wasm, { level: 9 }).length)})`,
);
