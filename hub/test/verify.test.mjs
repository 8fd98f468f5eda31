// `npm run hub:verify` (scripts/hub-verify.mjs, docs/HUB.md "Verifying a
// hub") against both targets started for real, as a separate process the
// way an operator runs it: every step passes (the paraphrase is skipped
// on workerd, which has no embedder here; run on Deno, whose hub embeds
// with MiniLM), one line per step with its milliseconds, exit 0;
// a wrong operator token fails and exits 1.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { root, startDeno, startWorkerd } from "../run.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-verify-"));
after(() => rmSync(work, { recursive: true, force: true }));

const targets = {
  workerd: () => startWorkerd({ build: join(work, "workerd-build"), persist: false, vars }),
  deno: () => startDeno({ kvPath: work, vars: { ...vars, MEMDOC_HUB_EMBEDDER: "minilm" } }),
};

const LINE = /^(pass|fail|skip) +\d+ ms {2}(.+)$/;

function verify(...args) {
  const run = spawnSync(process.execPath, [join(root, "scripts", "hub-verify.mjs"), ...args], { encoding: "utf8", env: { ...process.env, MEMDOC_HUB_OPERATOR_TOKEN: "" } });
  const steps = run.stdout.split("\n").filter((l) => LINE.test(l)).map((l) => LINE.exec(l).slice(1, 3));
  return { status: run.status, steps, out: run.stdout + run.stderr };
}

for (const [target, start] of Object.entries(targets)) {
  describe(`npm run hub:verify on ${target}`, { concurrency: false }, () => {
    let hub;
    before(async () => {
      hub = await start();
    });
    after(() => hub?.stop());

    const embedded = target === "deno";
    test(`every step of the list passes; the paraphrased recall ${embedded ? "runs (MiniLM)" : "is skipped without an embedder"}`, async () => {
      const run = verify(hub.url, "--operator-token", operator);
      assert.equal(run.status, 0, run.out);
      const names = run.steps.map(([, name]) => name.split(":")[0]);
      assert.deepEqual(names, [
        "create a team with two writer agents, and a second team",
        "agent A writes a memory with tags of meaning",
        "agent B recalls it by its words",
        "agent B recalls it with a question in other words",
        "the second team's key gets 404 for it",
        "agent A's update changes the revision; a stale update gets 412",
        "a policy and a sweep expire an entry, which is then no longer recalled",
        "delete what it created",
      ]);
      const outcome = Object.fromEntries(run.steps.map(([o, name]) => [name.split(":")[0], o]));
      if (embedded) {
        for (const [o, name] of run.steps) assert.equal(o, "pass", name);
      } else {
        assert.equal(outcome["agent B recalls it with a question in other words"], "skip");
        assert.match(run.out, /skip .*: no embedder is configured/);
        for (const [o, name] of run.steps) if (!name.startsWith("agent B recalls it with")) assert.equal(o, "pass", name);
      }
      assert.match(run.out, /every step passed/);
    });

    test("a failing step exits 1; bad arguments exit 2", () => {
      const wrong = verify(hub.url, "--operator-token", "not-the-token");
      assert.equal(wrong.status, 1, wrong.out);
      assert.equal(wrong.steps[0][0], "fail");
      assert.match(wrong.steps[0][1], /expected 201, got 401 auth\/invalid-key/);
      assert.equal(verify(hub.url).status, 2);
    });
  });
}
