// A test Worker bundled by wrangler exactly as a user's would be
// (`wrangler deploy --dry-run --outdir`: the package's `workerd` export
// condition, the .wasm files as compiled modules, the config's `rules`), and
// the module rules that give Miniflare the same upload.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { root } from "../helpers.mjs";

/** Miniflare's rules for wrangler's output: its scripts, its .wasm, and the Data modules of our rules. */
export const MODULE_RULES = [
  { type: "ESModule", include: ["**/*.js"] },
  { type: "CompiledWasm", include: ["**/*.wasm"] },
  { type: "Data", include: ["**/*.i8", "**/*.safetensors", "**/*.json"] },
];

/**
 * Bundle the Worker of `config` (wrangler.json's fields) into `work`/out.
 * @returns {{ out: string, upload: string, ms: number }} the output folder and wrangler's "Total Upload" line
 */
export function bundle(work, config) {
  writeFileSync(join(work, "wrangler.json"), JSON.stringify(config, null, 2));
  const started = Date.now();
  const out = join(work, "out");
  const built = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out, "--config", join(work, "wrangler.json")], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: join(work, "logs") },
  });
  assert.equal(built.status, 0, `wrangler failed (${built.error?.message ?? built.status}):\n${built.stdout}\n${built.stderr}`);
  const upload = built.stdout.match(/Total Upload: .*/)?.[0];
  assert.ok(upload, `wrangler should report the upload size:\n${built.stdout}`);
  return { out, upload, ms: Date.now() - started };
}

/** Stop the Miniflare of a test, then remove its folder. */
export async function stop(mf, work) {
  try {
    await mf?.dispose();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
