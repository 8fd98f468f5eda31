// Schemathesis (PyPI; OpenAPI property-based testing) against the hub, as
// a client generated from hub/openapi.json would see it: each target
// started for real on 127.0.0.1, a team seeded with its admin key and a
// memory, then `schemathesis run --checks all` with a fixed seed. Any
// failure (a request the schema allows that the hub refuses, a refused
// shape the hub accepts, an answer the schema does not describe, a 5xx)
// fails the run. `npm test` runs a bounded run; `npm run fuzz:hub` a long one.
//
//   node hub/fuzz/run.mjs [--target workerd|deno|both] [--max-examples 12] [--seed 43]
//
// Schemathesis comes from scripts/setup (target/schemathesis-venv, pinned in
// hub/fuzz/requirements.txt).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { root, startDeno, startWorkerd } from "../run.mjs";

const { values } = parseArgs({
  options: {
    target: { type: "string", default: "both" },
    "max-examples": { type: "string", default: "12" },
    seed: { type: "string", default: "43" },
  },
});
const schemathesis = join(root, "target", "schemathesis-venv", "bin", "schemathesis");
if (!existsSync(schemathesis)) {
  console.error(`hub fuzz: ${schemathesis} is missing; run bash scripts/setup`);
  process.exit(1);
}

const operator = randomBytes(24).toString("base64url");
// A rate no fuzzer reaches: 429 is allowed, but tells nothing.
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "1000000" };
const work = mkdtempSync(join(tmpdir(), "memdoc-fuzz-"));
const team = "fuzz";

async function seed(url) {
  const post = async (path, key, body) => {
    const r = await fetch(url + path, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!r.ok) throw new Error(`seeding: ${path} answered ${r.status} ${await r.text()}`);
    return r.json();
  };
  const { key } = await post("/v1/teams", operator, { team, admin: "admin" });
  // A second admin, so that the fuzzer's revocations cannot lock the run out.
  await post(`/v1/teams/${team}/keys`, key, { member: "spare", role: "admin" });
  const saved = await fetch(`${url}/v1/teams/${team}/memories/team/notes`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "text/markdown", "if-match": '"0"' },
    body: "## Decisions\n- 2025-03-15: Ship on Fridays\n\n## Open Questions\n- 2024-01-01: Which day?",
  });
  if (!saved.ok) throw new Error(`seeding: the save answered ${saved.status}`);
  return key;
}

function fuzz(url, key) {
  const args = [
    "--config-file",
    join(root, "hub", "fuzz", "schemathesis.toml"),
    "--no-color",
    "run",
    join(root, "hub", "openapi.json"),
    "--url",
    url,
    "--checks",
    "all",
    "--seed",
    values.seed,
    "--max-examples",
    values["max-examples"],
    "--workers",
    "1",
    // The events route switches to a WebSocket (101), deleting the team
    // would leave the fuzzer nothing to call, and Schemathesis cannot write
    // an NDJSON body (an import): the HTTP suites test all three.
    "--exclude-path-regex",
    "(/events|^/v1/teams/[{]team[}]|/import)$",
    "--warnings",
    "off",
  ];
  console.log(`$ schemathesis ${args.join(" ")}`);
  // Run in target/ (git-ignored), where schemathesis keeps its cache and
  // crash files (`st replay <id>`).
  const child = spawn(schemathesis, args, {
    cwd: join(root, "target"),
    stdio: "inherit",
    env: { ...process.env, MEMDOC_FUZZ_KEY: key, MEMDOC_FUZZ_OPERATOR: operator, MEMDOC_FUZZ_TEAM: team, SCHEMATHESIS_HOOKS: "" },
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
}

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: join(work, "deno"), vars }),
};
const chosen = values.target === "both" ? Object.keys(targets) : [values.target];
let failed = [];
try {
  for (const name of chosen) {
    if (!targets[name]) throw new Error(`--target must be workerd, deno or both, not ${name}`);
    console.log(`== schemathesis against the hub in ${name}`);
    const hub = await targets[name]();
    try {
      const code = await fuzz(hub.url, await seed(hub.url));
      if (code !== 0) failed.push(name);
    } finally {
      await hub.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed.length) {
  console.error(`hub fuzz: schemathesis failed against ${failed.join(" and ")}`);
  process.exit(1);
}
console.log(`hub fuzz: schemathesis passed against ${chosen.join(" and ")}`);
