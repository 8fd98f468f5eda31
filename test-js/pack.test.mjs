// `npm pack` of pkg/ installs into an empty project and imports by name.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { pkgDir } from "./helpers.mjs";

test("the packed tarball installs and `import { validate } from \"memdoc\"` works", () => {
  const dir = mkdtempSync(join(tmpdir(), "memdoc-pack-"));
  try {
    const npm = (...args) => execFileSync("npm", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const tarball = execFileSync("npm", ["pack", pkgDir, "--pack-destination", dir, "--silent"], { encoding: "utf8" }).trim().split("\n").at(-1);
    const files = execFileSync("tar", ["-tzf", join(dir, tarball)], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
    for (const f of ["node.js", "web.js", "deno.js", "workerd.js", "core.js", "panic.js", "memdoc.js", "memdoc_bg.wasm", "index.d.ts", "memdoc.d.ts", "README.md", "LICENSE", "package.json", ...["memory", "local-storage", "workers-kv", "durable-object", "deno-kv", "indexeddb"].flatMap((a) => [`adapters/${a}.js`, `adapters/${a}.d.ts`])]) {
      assert.ok(files.includes(`package/${f}`), `tarball should contain ${f}: ${files}`);
    }
    // The JavaScript that builds `parse`'s result (src/wire/document/document.js), which memdoc.js imports.
    assert.ok(files.some((f) => /^package\/snippets\/.+\/document\.js$/.test(f)), `tarball should contain snippets/…/document.js: ${files}`);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    npm("install", "--offline", "--no-audit", "--no-fund", `./${tarball}`);
    assert.deepEqual(readdirSync(join(dir, "node_modules")).filter((n) => !n.startsWith(".")), ["memdoc"], "no dependencies");
    writeFileSync(
      join(dir, "main.mjs"),
      `import { MemoryStore, validate } from "memdoc";
       import { memoryHost } from "memdoc/adapters/memory";
       const r = validate("## Preferences\\n- 2025-01-01: x", { scope: "team" });
       const store = new MemoryStore(memoryHost());
       const saved = await store.save({ scope: "user", id: "a" }, "## A\\n- 2025-01-01: x", { baseRevision: 0 });
       console.log(JSON.stringify({ ok: r.ok, codes: r.diagnostics.map((d) => d.code), revision: saved.revision }));`,
    );
    const out = execFileSync("node", ["main.mjs"], { cwd: dir, encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), { ok: false, codes: ["scope/personal-heading"], revision: 1 });
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
