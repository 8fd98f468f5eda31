// The rules of ARCHITECTURE.md that must never break, each checked over the
// repository's files as they are:
// - no circle of imports between the JavaScript modules (runtime imports;
//   a JSDoc `import("…")` type is not one);
// - no source file over 550 lines, except the generated ones (their first
//   line says so);
// - the engine's crate holds no boundary to JavaScript, whose crate
//   (bindings/wasm/) uses the engine's public API: no `js`, `wire` or
//   `wasm` module in `src/`, no `crate::js`, `crate::wire`, `crate::wasm`
//   or `memdoc_wasm` in `src/`, no dependency on `wasm-bindgen`, `js-sys`
//   or `memdoc-wasm` in its Cargo.toml, and no `cdylib` among its crate
//   types;
// - the engine's crate never names the command line, whose crate (cli/)
//   uses the engine's public API: no `src/cli` module, no `src/wasm/cli…`
//   file, no `feature = "cli"`, `crate::cli` or `memdoc_cli` in `src/`, no
//   `cli` feature and no dependency on `memdoc-cli` in its Cargo.toml;
// - target-specific code of the engine only in `src/fast/`: no other module
//   of the engine (the crate's root, which lists the modules, apart) has a
//   `cfg` on the target outside its tests;
// - the hub's storage only through its data layer: no module of `hub/src`
//   outside `hub/src/data/` (comments apart)
//   (a) calls a method of a team's storage (`get`, `getMany`, `put`,
//       `putMany`, `delete`, `deleteMany`, `create`, `list`, `deleteAll`)
//       or reads its `host`, on `storage` or `….storage`;
//   (b) writes a storage key: an array literal whose first element is the
//       quoted name of a namespace of `hub/src/data/layout.js`, unless it
//       has two or more elements that are all scope names (`["team",
//       "user", "task"]`, a list of scopes);
//   (c) writes a key of the engine's store: a template `memdoc/${…}` or
//       `memdoc-task/…`, or the string "memdoc-task";
// - no JavaScript of the hub reads the engine's records: no module of
//   `hub/src`, its data layer included (comments apart), builds a key of the
//   engine's store (`memdoc/${…}`, `memdoc-task/${…}`, "memdoc/user/…",
//   "memdoc/team/…", `…/rev/…`) or parses a record (`JSON.parse` of a
//   head, a snapshot or a stored `value`): the store's own operations
//   export, import and purge them;
// - every benchmark in `bench/`: no file or folder named for benchmarks
//   elsewhere (BENCHMARKS.md, their doc, apart), Cargo's `[[bench]]`
//   targets in `bench/`, its examples there or beside the recall
//   evaluation (`tests/recall/`), none in a crate's `examples/`;
// - every recall evaluation set in `tests/recall/`, written by its one
//   generator: no data file (.md, .json, .py) named for recall, and no
//   questions, queries or held-out set, elsewhere; no other `generate*.py`.
// Each rule is also run over a small tree that breaks it, so a rule that
// could not fail would fail here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { LAYOUT } from "../hub/src/data/layout.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MAX_LINES = 550;
/** Folders that hold no source of the project's own (built, installed or data); names starting with a dot are skipped too. */
const SKIP = new Set(["node_modules", "target", "pkg", "pkg-minilm", "pkg-static", "dist", "artifacts", "fixtures", "snapshots", "conformance", "merge-corpus"]);
const SOURCE = /\.(rs|js|mjs|ts)$/;

/** Every file under `dir`, relative to `base`, and every folder (with a trailing `/`). */
function entries(base, dir = base) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIP.has(name)) out.push(`${relative(base, path)}/`, ...entries(base, path));
    } else {
      out.push(relative(base, path));
    }
  }
  return out;
}

/** Every source file of `base`, relative to it. */
const sources = (base) => entries(base).filter((f) => SOURCE.test(f));

/** The text without its comments (enough for import statements). */
const uncommented = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

const IMPORT = /(?:^|;|\n)\s*(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|(?:^|;|\n)\s*import\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The circles of runtime imports among the JavaScript files of `base`: lists of files. */
export function importCircles(base) {
  const files = sources(base).filter((f) => /\.m?js$/.test(f));
  const edges = new Map(files.map((f) => {
    const text = uncommented(readFileSync(join(base, f), "utf8"));
    const to = [...text.matchAll(IMPORT)].map((m) => relative(base, resolve(base, dirname(f), m[1] ?? m[2] ?? m[3])));
    return [f, to.filter((t) => t !== f)];
  }));
  // Tarjan's strongly connected components: a component of two or more files is a circle.
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), circles = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const circle = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        circle.push(w);
      } while (w !== v);
      if (circle.length > 1) circles.push(circle.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** The source files of `base` over the limit, with their line counts (generated files apart). */
export function longFiles(base) {
  return sources(base).flatMap((f) => {
    const text = readFileSync(join(base, f), "utf8");
    if (/^\/\/.*\bGenerated\b.*do not edit/i.test(text.split("\n", 1)[0])) return [];
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    return lines > MAX_LINES ? [`${f} (${lines} lines)`] : [];
  });
}

const BOUNDARY = ["js", "wire", "wasm"];

/** Where the engine's crate in `base` holds or names the boundary to JavaScript (see the rule above). */
export function engineHoldingBoundary(base) {
  const src = join(base, "src");
  const files = sources(src);
  const found = readdirSync(src)
    .filter((name) => BOUNDARY.some((b) => name === b || name === `${b}.rs`))
    .map((name) => `src/${name}${name.endsWith(".rs") ? "" : "/"}: a boundary module`);
  for (const f of files.filter((f) => f.endsWith(".rs"))) {
    // Comments apart: a doc may say where its values go.
    const named = readFileSync(join(src, f), "utf8")
      .replace(/\/\/.*$/gm, "")
      .match(new RegExp(`\\bcrate::(?:${BOUNDARY.join("|")})\\b|\\bmemdoc_wasm\\b`, "g"));
    if (named) found.push(`src/${f}: ${[...new Set(named)].join(", ")}`);
  }
  const sections = readFileSync(join(base, "Cargo.toml"), "utf8").replace(/#.*$/gm, "").split(/^\[/m);
  for (const dependency of ["wasm-bindgen", "js-sys", "memdoc-wasm"]) {
    const line = new RegExp(`^\\s*${dependency}\\s*=`, "m");
    if (sections.some((s) => /dependencies\]/.test(s.split("\n", 1)[0]) && line.test(s))) found.push(`Cargo.toml: a dependency on ${dependency}`);
  }
  if (sections.some((s) => s.startsWith("lib]") && /^\s*crate-type\s*=.*"cdylib"/m.test(s))) found.push("Cargo.toml: a cdylib");
  return found;
}

/** Where the engine's crate in `base` names the command line (see the rule above). */
export function engineNamingCli(base) {
  const src = join(base, "src");
  const files = sources(src);
  const found = files.filter((f) => f === "cli.rs" || f.startsWith("cli/") || f.startsWith("wasm/cli")).map((f) => `src/${f}`);
  for (const f of files.filter((f) => f.endsWith(".rs"))) {
    const named = readFileSync(join(src, f), "utf8")
      .replace(/\/\/.*$/gm, "")
      .match(/feature\s*=\s*"cli"|\bcrate::cli\b|\bmemdoc_cli\b/g);
    if (named) found.push(`src/${f}: ${[...new Set(named)].join(", ")}`);
  }
  const sections = readFileSync(join(base, "Cargo.toml"), "utf8").replace(/#.*$/gm, "").split(/^\[/m);
  if (sections.some((s) => s.startsWith("features]") && /^\s*cli\s*=/m.test(s))) found.push("Cargo.toml: a `cli` feature");
  if (sections.some((s) => /dependencies\]/.test(s.split("\n", 1)[0]) && /^\s*memdoc-cli\s*=/m.test(s))) found.push("Cargo.toml: a dependency on memdoc-cli");
  return found;
}

/** The engine's modules of `base/src`, outside `fast/`, with a `cfg` on the target before their tests. */
export function targetCodeOutsideFast(base) {
  const src = join(base, "src");
  return sources(src)
    .filter((f) => f.endsWith(".rs") && f !== "lib.rs" && !f.startsWith("fast/"))
    .filter((f) => /cfg\((?:not\(|any\(|all\()*\s*target_/.test(readFileSync(join(src, f), "utf8").split("#[cfg(test)]")[0]))
    .map((f) => `src/${f}`);
}

const STORAGE_CALL = /(?:\bstorage|\.storage)\s*\.\s*(?:get|getMany|put|putMany|delete|deleteMany|create|list|deleteAll|host)\b/;
const SCOPES = new Set(["team", "user", "task"]);
const STORE_KEY = /`memdoc(?:-task)?\/\$\{|["'`]memdoc-task["'`/]/;
/** The storage keys (namespace names) an array literal `[…]` starting at `text[at]` writes, if it is one. */
function storageKey(text, at, names) {
  const first = /^\[\s*["']([a-z]+)["']\s*([,\]])/.exec(text.slice(at));
  if (!first || !names.has(first[1])) return null;
  const elements = /^\[([^\[\]]*)\]/.exec(text.slice(at))?.[1].split(",").map((e) => e.trim());
  const scopes = elements && elements.length >= 2 && elements.every((e) => /^["'][a-z]+["']$/.test(e) && SCOPES.has(e.slice(1, -1)));
  return scopes ? null : first[1];
}

/** The modules of `base/hub/src` outside `data/` that touch storage, with what they touch. */
export function storageOutsideData(base, namespaces = LAYOUT.map((n) => n.name)) {
  const dir = join(base, "hub", "src");
  const names = new Set(namespaces);
  return sources(dir)
    .filter((f) => /\.m?js$/.test(f) && !f.startsWith("data/"))
    .flatMap((f) => {
      const file = `hub/src/${f}`;
      const lines = uncommented(readFileSync(join(dir, f), "utf8")).split("\n");
      const found = [];
      lines.forEach((line, i) => {
        if (STORAGE_CALL.test(line)) found.push(`${file}:${i + 1}: a storage call`);
        if (STORE_KEY.test(line)) found.push(`${file}:${i + 1}: a key of the engine's store`);
        for (const m of line.matchAll(/\[/g)) {
          const name = storageKey(line, m.index, names);
          if (name) found.push(`${file}:${i + 1}: a key of "${name}"`);
        }
      });
      return found;
    });
}

const RECORD_KEY = /`memdoc(?:-task)?\/\$\{|["'`]memdoc(?:-task)?\/(?:user|team)\/|\/rev\//;
const RECORD_PARSE = /JSON\.parse\([^;]*\b(?:head|snapshots?|value)\b/;

/** The modules of `base/hub/src` that build a key of the engine's store or parse its records, with what they do. */
export function storeRecordsInHub(base) {
  const dir = join(base, "hub", "src");
  return sources(dir)
    .filter((f) => /\.m?js$/.test(f))
    .flatMap((f) => {
      const lines = uncommented(readFileSync(join(dir, f), "utf8")).split("\n");
      return lines.flatMap((line, i) => [
        ...(RECORD_KEY.test(line) ? [`hub/src/${f}:${i + 1}: a key of the engine's store`] : []),
        ...(RECORD_PARSE.test(line) ? [`hub/src/${f}:${i + 1}: a record parsed`] : []),
      ]);
    });
}

/** `[[KIND]]` targets of a Cargo manifest's text: their names and paths (null when Cargo's default). */
function cargoTargets(text, kind) {
  return text.split(/^(?=\[)/m).filter((part) => part.startsWith(`[[${kind}]]`)).map((part) => ({
    name: part.match(/^name\s*=\s*"([^"]*)"/m)?.[1],
    path: part.match(/^path\s*=\s*"([^"]*)"/m)?.[1] ?? null,
  }));
}

/** Benchmarks of `base` outside `bench/`: files, folders and Cargo targets. */
export function benchmarksOutsideBench(base) {
  const all = entries(base);
  const inBench = (p) => p.startsWith("bench/");
  const named = all.filter((p) => !inBench(p) && p !== "BENCHMARKS.md" && /bench/i.test(p.replace(/\/$/, "").split("/").pop()));
  const examples = all.filter((p) => /(^|\/)examples\/[^/]+\.rs$/.test(p)).map((p) => `${p}: a Cargo example outside bench/`);
  const targets = all.filter((p) => /(^|\/)Cargo\.toml$/.test(p)).flatMap((manifest) => {
    const text = readFileSync(join(base, manifest), "utf8");
    const at = (path) => relative(base, resolve(base, dirname(manifest), path));
    return [
      ...cargoTargets(text, "bench").filter((t) => t.path === null || !inBench(at(t.path))).map((t) => `${manifest}: [[bench]] ${t.name} at ${t.path === null ? "Cargo's default" : at(t.path)}`),
      ...cargoTargets(text, "example").filter((t) => t.path !== null && !inBench(at(t.path)) && !at(t.path).startsWith("tests/recall/")).map((t) => `${manifest}: [[example]] ${t.name} at ${at(t.path)}`),
    ];
  });
  return [...named, ...examples, ...targets];
}

/** Recall evaluation data of `base` outside `tests/recall/`, and any generator but its one. */
export function recallSetsOutside(base) {
  return entries(base).filter((p) => {
    if (p.endsWith("/")) return false;
    const name = p.split("/").pop();
    if (/^generate.*\.py$/.test(name)) return p !== "tests/recall/generate.py";
    if (p.startsWith("tests/recall/")) return false;
    return (/\.(md|json|py)$/.test(name) && /recall/i.test(p)) || /^(questions|queries|heldout)\b.*\.json$/.test(name);
  });
}

test("no circle of imports between the JavaScript modules", () => {
  assert.deepEqual(importCircles(root), []);
});

test(`no source file over ${MAX_LINES} lines`, () => {
  assert.deepEqual(longFiles(root), []);
});

test("the engine's crate holds no boundary to JavaScript", () => {
  assert.deepEqual(engineHoldingBoundary(root), []);
});

test("the engine's crate never names the command line", () => {
  assert.deepEqual(engineNamingCli(root), []);
});

test("target-specific code of the engine only in src/fast/", () => {
  assert.deepEqual(targetCodeOutsideFast(root), []);
});

test("the hub's storage only through hub/src/data", () => {
  assert.deepEqual(storageOutsideData(root), []);
});

test("no JavaScript of the hub builds the engine's store keys or parses its records", () => {
  assert.deepEqual(storeRecordsInHub(root), []);
});

test("every benchmark in bench/", () => {
  assert.deepEqual(benchmarksOutsideBench(root), []);
});

test("every recall evaluation set in tests/recall/, with one generator", () => {
  assert.deepEqual(recallSetsOutside(root), []);
});

test("each rule fails on a tree that breaks it", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-architecture-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "a"));
  mkdirSync(join(dir, "src", "recall"), { recursive: true });
  writeFileSync(join(dir, "a", "one.js"), `// import { x } from "./three.js";\nimport { two } from "./two.js";\nexport const one = 1;\n`);
  writeFileSync(join(dir, "a", "two.js"), `/** @type {import("./three.js").T} */\nexport {\n  one,\n} from "./one.js";\nexport const two = 2;\n`);
  writeFileSync(join(dir, "a", "three.js"), `import { one } from "./one.js";\n`);
  writeFileSync(join(dir, "a", "long.mjs"), "x;\n".repeat(MAX_LINES + 1));
  writeFileSync(join(dir, "a", "table.js"), `// Generated by the build: do not edit.\n${"x;\n".repeat(MAX_LINES + 1)}`);
  writeFileSync(join(dir, "src", "recall", "mod.rs"), "//! Carried by `crate::wire::recall`.\nuse crate::wasm::names;\n");
  writeFileSync(join(dir, "src", "wire.rs"), "use crate::js::input;\n");
  writeFileSync(join(dir, "src", "recall", "score.rs"), `#[cfg(target_arch = "wasm32")]\nfn f() {}\n`);
  mkdirSync(join(dir, "src", "cli"));
  mkdirSync(join(dir, "src", "wasm"));
  writeFileSync(join(dir, "src", "cli", "run.rs"), "use crate::parse;\n");
  writeFileSync(join(dir, "src", "wasm", "cli.rs"), "// Uses memdoc_cli.\nuse crate::parse;\n");
  writeFileSync(join(dir, "src", "lib.rs"), `#[cfg(feature = "cli")]\npub mod cli;\n// crate::cli\n`);
  writeFileSync(join(dir, "src", "recall", "cut.rs"), "use memdoc_cli::run;\n");
  writeFileSync(join(dir, "src", "recall", "sort.rs"), "// Not memdoc_wasm::js.\nuse memdoc_wasm::js::view;\n");
  writeFileSync(join(dir, "src", "recall", "math.rs"), `fn f() {}\n#[cfg(test)]\nmod tests {\n    #[cfg(not(target_arch = "wasm32"))]\n    fn g() {}\n}\n`);
  // Benchmarks and recall sets where they belong, and where they do not.
  for (const f of ["bench/ab.mjs", "bench/native.rs", "BENCHMARKS.md", "benches/engine.rs", "scripts/bench-start.mjs", "hub/bench.mjs", "crate/examples/peak.rs", "examples/agent.mjs",
    "tests/recall/generate.py", "tests/recall/eval/data.py", "tests/recall/eval/questions.json", "tests/recall/vectors.json", "tests/recall-eval/team.md", "tests/recall-vectors.json", "tests/cli/queries.json",
    "tests/recall/eval-zh/generate.py", "test-js/recall.test.mjs"]) {
    mkdirSync(join(dir, dirname(f)), { recursive: true });
    writeFileSync(join(dir, f), "\n");
  }
  writeFileSync(join(dir, "Cargo.toml"), `[package]\nname = "a"\n\n[[bench]]\nname = "engine"\nharness = false\n\n[[bench]]\nname = "speed"\npath = "bench/speed.rs"\n\n[[example]]\nname = "native"\npath = "bench/native.rs"\n\n[[example]]\nname = "fit"\npath = "tests/recall/eval/fit.rs"\n\n[lib]\ncrate-type = ["cdylib", "rlib"]\n\n[dependencies]\nmemdoc-cli = { path = "cli" }\n# js-sys = "0.3"\n\n[target.'cfg(target_arch = "wasm32")'.dependencies]\nwasm-bindgen = "=0.2.130"\n\n[dev-dependencies]\nmemdoc-wasm = { path = "bindings/wasm" }\n\n[features]\n# cli = []\ntest-util = []\ncli = []\n`);
  writeFileSync(join(dir, "crate", "Cargo.toml"), `[package]\nname = "b"\n\n[[example]]\nname = "peak"\npath = "../tools/peak.rs"\n\n[[example]]\nname = "minilm"\npath = "../bench/minilm.rs"\n`);
  assert.deepEqual(benchmarksOutsideBench(dir).sort(), [
    "Cargo.toml: [[bench]] engine at Cargo's default",
    "benches/",
    "crate/Cargo.toml: [[example]] peak at tools/peak.rs",
    "crate/examples/peak.rs: a Cargo example outside bench/",
    "hub/bench.mjs",
    "scripts/bench-start.mjs",
  ]);
  assert.deepEqual(recallSetsOutside(dir).sort(), ["tests/cli/queries.json", "tests/recall-eval/team.md", "tests/recall-vectors.json", "tests/recall/eval-zh/generate.py"]);
  assert.deepEqual(importCircles(dir), [["a/one.js", "a/two.js"]]);
  assert.deepEqual(longFiles(dir), [`a/long.mjs (${MAX_LINES + 1} lines)`]);
  assert.deepEqual(engineHoldingBoundary(dir).sort(), [
    "Cargo.toml: a cdylib",
    "Cargo.toml: a dependency on memdoc-wasm",
    "Cargo.toml: a dependency on wasm-bindgen",
    "src/recall/mod.rs: crate::wasm",
    "src/recall/sort.rs: memdoc_wasm",
    "src/wasm/: a boundary module",
    "src/wire.rs: a boundary module",
    "src/wire.rs: crate::js",
  ]);
  assert.deepEqual(targetCodeOutsideFast(dir), ["src/recall/score.rs"]);
  assert.deepEqual(engineNamingCli(dir).sort(), [
    "Cargo.toml: a `cli` feature",
    "Cargo.toml: a dependency on memdoc-cli",
    "src/cli/run.rs",
    'src/lib.rs: feature = "cli"',
    "src/recall/cut.rs: memdoc_cli",
    "src/wasm/cli.rs",
  ]);
  mkdirSync(join(dir, "hub", "src", "data"), { recursive: true });
  mkdirSync(join(dir, "hub", "src", "routes"));
  writeFileSync(join(dir, "hub", "src", "data", "key.js"), `export const readKey = (storage, id) => storage.get(["key", id]);\n`);
  writeFileSync(
    join(dir, "hub", "src", "routes", "keys.js"),
    `// storage.get(["key", id]) in a comment is no call\nconst scope = z.enum(["team", "user", "task"]);\nawait who.storage.deleteMany([["key", id], ["used", id]]);\nconst team = ['team'];\nconst head = \`memdoc/\${ref.scope}/\${ref.id}\`;\nnew MemoryStore(storage.host);\n`,
  );
  writeFileSync(join(dir, "hub", "src", "data", "vectors.js"), "");
  writeFileSync(join(dir, "hub", "src", "embedding.js"), `const at = (k) => ["vectors", k];\nawait storage.getMany(keys);\n`);
  const broken = [
    'hub/src/embedding.js:1: a key of "vectors"',
    "hub/src/embedding.js:2: a storage call",
    "hub/src/routes/keys.js:3: a storage call",
    'hub/src/routes/keys.js:3: a key of "key"',
    'hub/src/routes/keys.js:3: a key of "used"',
    'hub/src/routes/keys.js:4: a key of "team"',
    "hub/src/routes/keys.js:5: a key of the engine's store",
    "hub/src/routes/keys.js:6: a storage call",
  ];
  // No module outside hub/src/data keeps a namespace, whatever the data layer holds.
  assert.deepEqual(storageOutsideData(dir).sort(), broken.sort());
  writeFileSync(
    join(dir, "hub", "src", "data", "memories.js"),
    `// JSON.parse(found.value) in a comment is no parse\nconst head = JSON.parse(found.value);\nconst key = "memdoc/team/" + id;\nconst own = \`\${head}/rev/\`;\nconst line = JSON.parse(raw);\nimport { x } from "memdoc/adapters/memory";\n`,
  );
  assert.deepEqual(storeRecordsInHub(dir).sort(), [
    "hub/src/data/memories.js:2: a record parsed",
    "hub/src/data/memories.js:3: a key of the engine's store",
    "hub/src/data/memories.js:4: a key of the engine's store",
    "hub/src/routes/keys.js:5: a key of the engine's store",
  ]);
});
