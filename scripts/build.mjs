#!/usr/bin/env node
// Build the npm package: wasm-pack (web target) into a scratch directory,
// then assemble the package directory from the glue, the wasm and
// pkg-template/ (entries, types, README, LICENSE), with the version taken
// from Cargo.toml. Prints the .wasm's raw and gzip sizes. Then the MiniLM
// embedder (embedders/minilm/) as its own module in embedders/minilm/, with
// the model's tokenizer.json and NOTICE; the files of weight go to packages
// of their own (pkg-template/@memdoc/): the model's weights packed to f16
// from target/models/ (bash scripts/setup fetches them) in pkg-minilm/
// (@memdoc/minilm), the static table in pkg-static/ (@memdoc/static).
//
//   node scripts/build.mjs                  release build into pkg/, the
//                                           bin's module into pkg/cli/, and
//                                           pkg-minilm/ and pkg-static/
//   node scripts/build.mjs --test-panic --out <dir>
//                                           dev build with the `test-panic`
//                                           feature, for the panic tests and
//                                           test-js/parse-literal.test.mjs only
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  },
});
const testPanic = args["test-panic"];
const out = resolve(args.out);
const scratch = join(root, "target", "wasm-pack", testPanic ? "test-panic" : "release");

// wasm-opt comes from the npm package binaryen (Debian's is broken here);
// wasm-pack and wasm-bindgen from ~/.cargo/bin. `--mode no-install` keeps
// wasm-pack from downloading anything.
const env = {
  ...process.env,
  PATH: [join(root, "node_modules", ".bin"), join(homedir(), ".cargo", "bin"), process.env.PATH].join(
    delimiter,
  ),
};

function cargoVersion() {
  const manifest = readFileSync(join(root, "Cargo.toml"), "utf8");
  const pkg = manifest.split(/^\[/m).find((section) => section.startsWith("package]"));
  const version = pkg?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!version) throw new Error("Cargo.toml: no [package] version");
  return version;
}

/** wasm-pack's web-target build of the crate with `features` into `dir`. */
function wasmPack(dir, features) {
  rmSync(dir, { recursive: true, force: true });
  execFileSync(
    "wasm-pack",
    [
      "build",
      testPanic ? "--dev" : "--release",
      "--mode",
      "no-install",
      "--target",
      "web",
      "--no-pack",
      "--out-name",
      "memdoc",
      "--out-dir",
      dir,
      root,
      ...(features.length ? ["--", "--features", features.join(",")] : []),
    ],
    { stdio: "inherit", env },
  );
}

wasmPack(scratch, testPanic ? ["test-panic"] : []);
// The module of the package's bin (cli.js, docs/CLI.md): the same crate
// with the command line's engine (the `cli` feature), in pkg/cli/, so that
// the package's own module does not carry it. Not in test-panic builds.
const cliScratch = join(root, "target", "wasm-pack", "release-cli");
if (!testPanic) wasmPack(cliScratch, ["cli"]);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of ["memdoc.js", "memdoc.d.ts", "memdoc_bg.wasm", "memdoc_bg.wasm.d.ts"]) {
  cpSync(join(scratch, file), join(out, file));
}
// The JavaScript modules the Rust code imports (src/wire/*/*.js, src/wasm/*.js).
cpSync(join(scratch, "snippets"), join(out, "snippets"), { recursive: true });
if (!testPanic) {
  for (const file of ["memdoc.js", "memdoc_bg.wasm", "snippets"]) {
    cpSync(join(cliScratch, file), join(out, "cli", file), { recursive: true });
  }
}
const template = join(root, "pkg-template");
// pkg-template/@memdoc/ holds the embedders' packages of weight (below).
for (const file of readdirSync(template)) {
  if (file !== "package.json" && file !== "@memdoc") cpSync(join(template, file), join(out, file), { recursive: true });
}
// The repository's NOTICE (the MiniLM model's license) travels with the package.
cpSync(join(root, "NOTICE"), join(out, "NOTICE"));
const manifest = JSON.parse(readFileSync(join(template, "package.json"), "utf8"));
manifest.version = cargoVersion();
// The embedders' packages are released with the engine, at its version.
for (const name of Object.keys(manifest.peerDependencies)) manifest.peerDependencies[name] = manifest.version;
writeFileSync(join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

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
if (!testPanic) {
  const model = join(root, "target", "models", "all-MiniLM-L6-v2");
  for (const file of ["model.safetensors", "tokenizer.json"]) {
    if (!existsSync(join(model, file))) throw new Error(`${join(model, file)} is missing: run bash scripts/setup`);
  }
  const minilmBuild = (name, rustflags) => {
    const scratch = join(root, "target", "wasm-pack", name);
    rmSync(scratch, { recursive: true, force: true });
    execFileSync(
      "wasm-pack",
      ["build", "--release", "--mode", "no-install", "--target", "web", "--no-pack", "--out-name", "minilm", "--out-dir", scratch, join(root, "embedders", "minilm")],
      { stdio: "inherit", env: { ...env, CARGO_TARGET_DIR: join(root, "target", `${name}-wasm`), RUSTFLAGS: rustflags } },
    );
    return scratch;
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
  if (!existsSync(table)) throw new Error(`${table} is missing: run bash scripts/setup`);
  const tableBytes = readFileSync(table);
  const sha = createHash("sha256").update(tableBytes).digest("hex");
  const expected = readFileSync(join(root, "embedders", "minilm", "static.sha256"), "utf8").split(/\s+/)[0];
  if (sha !== expected) throw new Error(`${table}: sha256 ${sha}, not ${expected} (embedders/minilm/static.sha256): run bash scripts/setup`);
  weightPackage("static", join(root, "pkg-static"), { [tableName]: tableBytes });
}

const wasm = readFileSync(join(out, "memdoc_bg.wasm"));
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(
  `memdoc ${manifest.version} -> ${out}\n` +
    `memdoc_bg.wasm: ${wasm.length} bytes raw (${kb(wasm.length)}), ` +
    `${gzipSync(wasm, { level: 9 }).length} bytes gzip -9 (${kb(gzipSync(wasm, { level: 9 }).length)})`,
);
