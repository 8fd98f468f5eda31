// `npm pack` of pkg/ installs into an empty project and imports by name,
// with no embedder's package (memdoc alone packs to a few megabytes), and
// with the embedders' packages of weight (pkg-minilm/, pkg-static/)
// installed beside it.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { minilmDir, pkgDir, staticDir } from "./helpers.mjs";

/** `npm pack` of `dir` into `into`: the tarball's name. */
const pack = (dir, into) => execFileSync("npm", ["pack", dir, "--pack-destination", into, "--silent"], { encoding: "utf8" }).trim().split("\n").at(-1);

const TEAM = "## Architecture\n- 2025-01-10: Services use PostgreSQL 16\n- 2025-02-01: The frontend is a React single-page app\n## Process\n- 2025-03-02: Production releases only ship on Tuesdays and Thursdays";

test("the packed tarball installs and `import { validate } from \"memdoc\"` works", () => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-pack-"));
  try {
    const npm = (...args) => execFileSync("npm", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const tarball = pack(pkgDir, dir);
    const bytes = statSync(join(dir, tarball)).size;
    console.log(`npm pack of memdoc: ${bytes} bytes`);
    assert.ok(bytes < 5_000_000, `memdoc packs to ${bytes} bytes: the embedders' weights belong to their own packages`);
    const files = execFileSync("tar", ["-tzf", join(dir, tarball)], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
    assert.deepEqual(files.filter((f) => /\.(safetensors|i8)$/.test(f)), [], "no weights in memdoc's tarball");
    for (const f of ["node.js", "web.js", "deno.js", "workerd.js", "core.js", "panic.js", "memdoc.js", "memdoc_bg.wasm", "index.d.ts", "memdoc.d.ts", "README.md", "LICENSE", "package.json", ...["memory", "local-storage", "workers-kv", "durable-object", "deno-kv", "indexeddb"].flatMap((a) => [`adapters/${a}.js`, `adapters/${a}.d.ts`])]) {
      assert.ok(files.includes(`package/${f}`), `tarball should contain ${f}: ${files}`);
    }
    // The JavaScript that builds `parse`'s result (bindings/wasm/src/wire/document/document.js), which memdoc.js imports.
    assert.ok(files.some((f) => /^package\/snippets\/.+\/document\.js$/.test(f)), `tarball should contain snippets/…/document.js: ${files}`);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    npm("install", "--offline", "--no-audit", "--no-fund", `./${tarball}`);
    assert.deepEqual(readdirSync(join(dir, "node_modules")).filter((n) => !n.startsWith(".")), ["memdoc"], "no dependencies");
    writeFileSync(
      join(dir, "main.mjs"),
      `import { MemoryStore, recall, validate } from "memdoc";
       import { memoryHost } from "memdoc/adapters/memory";
       import { miniLmEmbedder } from "memdoc/embedders/minilm";
       import { staticEmbedder } from "memdoc/embedders/static";
       const r = validate("## Preferences\\n- 2025-01-01: x", { scope: "team" });
       const recalled = recall(${JSON.stringify(TEAM)}, "which database do the services use?", { scope: "team", today: "2025-06-01" });
       const store = new MemoryStore(memoryHost());
       const saved = await store.save({ scope: "user", id: "a" }, "## A\\n- 2025-01-01: x", { baseRevision: 0 });
       const missing = [];
       for (const embedder of [miniLmEmbedder, staticEmbedder]) {
         try {
           await embedder();
           missing.push("loaded");
         } catch (error) {
           missing.push({ code: error.code, message: error.message });
         }
       }
       console.log(JSON.stringify({ ok: r.ok, codes: r.diagnostics.map((d) => d.code), recalled: recalled.selected.map((s) => s.text), revision: saved.revision, missing }));`,
    );
    const out = JSON.parse(execFileSync("node", ["main.mjs"], { cwd: dir, encoding: "utf8" }));
    assert.deepEqual(out.missing.map((m) => m.code), ["embedder/unavailable", "embedder/unavailable"], JSON.stringify(out.missing));
    assert.match(out.missing[0].message, /@memdoc\/minilm.*not installed/);
    assert.match(out.missing[1].message, /@memdoc\/static.*not installed/);
    delete out.missing;
    assert.deepEqual(out, { ok: false, codes: ["scope/personal-heading"], recalled: ["Services use PostgreSQL 16"], revision: 1 });
    const wasm = execFileSync("node", ["--input-type=module", "-e", `console.log(import.meta.resolve("memdoc/wasm"))`], { cwd: dir, encoding: "utf8" });
    assert.match(wasm.trim(), /node_modules\/memdoc\/memdoc_bg\.wasm$/);
    // The bin (docs/CLI.md), as npm links it: `npx memdoc`.
    writeFileSync(join(dir, "MEMORY.md"), "## Preferences\n- 2025-01-01: x\n");
    const checked = spawnSync(join(dir, "node_modules", ".bin", "memdoc"), ["check", "--scope", "team", "MEMORY.md"], { cwd: dir, encoding: "utf8" });
    assert.equal(checked.status, 1, checked.stderr);
    assert.match(checked.stdout, /^MEMORY\.md:1:1: error scope\/personal-heading: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the embedders' packages installed beside memdoc from their tarballs: each embedder loads its files and recalls by meaning", { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-pack-embedders-"));
  try {
    const tarballs = [pkgDir, minilmDir, staticDir].map((d) => pack(d, dir));
    const sizes = tarballs.map((t) => `${t} ${statSync(join(dir, t)).size} bytes`);
    console.log(`npm pack: ${sizes.join(", ")}`);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", ...tarballs.map((t) => `./${t}`)], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    assert.deepEqual(readdirSync(join(dir, "node_modules", "@memdoc")).sort(), ["minilm", "static"]);
    writeFileSync(
      join(dir, "main.mjs"),
      `import { hybridRecall } from "memdoc";
       import { miniLmEmbedder } from "memdoc/embedders/minilm";
       import { staticEmbedder } from "memdoc/embedders/static";
       const out = {};
       for (const embedder of [await miniLmEmbedder(), await staticEmbedder()]) {
         const r = await hybridRecall(${JSON.stringify(TEAM)}, "which relational database do we run?", { scope: "team", budget: 400, today: "2025-06-01", embedder });
         const top = r.selected.reduce((a, b) => (b.why.relevance > a.why.relevance ? b : a));
         out[embedder.id] = { semantic: r.semantic, top: top.text };
       }
       console.log(JSON.stringify(out));`,
    );
    const out = JSON.parse(execFileSync("node", ["main.mjs"], { cwd: dir, encoding: "utf8" }));
    for (const id of ["all-MiniLM-L6-v2", "all-MiniLM-L6-v2-static-256-v2"]) {
      assert.deepEqual(out[id], { semantic: { model: id, degraded: null }, top: "Services use PostgreSQL 16" }, id);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
