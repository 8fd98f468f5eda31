// An import is whole or absent after a crash (docs/HUB.md, "Backup and
// restore"): on workerd and on Deno, each with its state on disk, imports
// of two sizes are killed (SIGKILL of the hub's process) at random points,
// the hub is started again on the same state, and the team is either
// absent (its keys unknown) or whole (every memory there); when absent,
// the same import run again makes it whole.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { startDeno, startWorkerd } from "../run.mjs";
import { client, sleep } from "./client.mjs";

const operator = randomBytes(24).toString("base64url");
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "100000" };
const work = mkdtempSync(join(tmpdir(), "memdoc-hub-crash-"));
after(() => rmSync(work, { recursive: true, force: true }));

const NDJSON = "application/x-ndjson";
const SIZES = [10, 60];
const RUNS = 3;

const targets = {
  // Bundled once: a restart runs the same Worker.
  workerd: (restart) => startWorkerd({ build: join(work, "workerd-build"), persist: join(work, "workerd-state"), vars, reuseBuild: restart }),
  deno: () => startDeno({ kvPath: join(work, "deno-kv"), vars }),
};

for (const [name, start] of Object.entries(targets)) {
  describe(`an import killed at a random point, ${name}`, { concurrency: false }, () => {
    let hub;
    let call;
    const restart = async () => {
      await hub.kill();
      hub = await start(true);
      call = client(hub.url);
    };
    after(() => hub?.stop());

    /** The team `team` of `size` team memories (and the admin's user memory), exported, then deleted. */
    async function source(team, size) {
      const made = await call("POST", "/v1/teams", { key: operator, body: { team, admin: "root" } });
      assert.equal(made.status, 201, made.text);
      const save = (scope, id, text) => call("PUT", `/v1/teams/${team}/memories/${scope}/${id}`, { key: made.json.key, body: text, headers: { "if-match": '"0"' } });
      for (let i = 0; i < size; i += 1) assert.equal((await save("team", `m${i}`, `## Facts\n- 2025-01-01: fact ${i}`)).status, 200);
      assert.equal((await save("user", "root", "## Preferences\n- 2025-01-01: terse")).status, 200);
      // The admin's export: the team memories and the admin's own user memory, here the whole team.
      const exported = await call("GET", `/v1/teams/${team}/export`, { key: made.json.key });
      assert.equal(exported.status, 200);
      assert.equal((await call("DELETE", `/v1/teams/${team}`, { key: operator })).status, 204);
      return { key: made.json.key, text: exported.text };
    }

    /** "absent" or "whole"; fails on anything between. */
    async function state(team, key, size) {
      const listed = await call("GET", `/v1/teams/${team}/memories`, { key });
      if (listed.status === 401) {
        assert.equal(listed.json.code, "auth/invalid-key");
        return "absent";
      }
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.json.memories.filter((m) => m.scope === "team").length, size, "every team memory is there");
      const user = await call("GET", `/v1/teams/${team}/memories/user/root`, { key });
      assert.equal(user.json?.content, "## Preferences\n- 2025-01-01: terse");
      const last = await call("GET", `/v1/teams/${team}/memories/team/m${size - 1}`, { key });
      assert.equal(last.json?.content, `## Facts\n- 2025-01-01: fact ${size - 1}`);
      const audit = await call("GET", `/v1/teams/${team}/audit?limit=5`, { key });
      assert.ok(audit.json.entries.some((e) => e.action === "team.import"), "the import is audited");
      return "whole";
    }

    test(`sizes ${SIZES.join(" and ")}, ${RUNS} kills each: no team or the whole team, and the retry succeeds`, async () => {
      hub = await start();
      call = client(hub.url);
      const seen = [];
      for (const size of SIZES) {
        const team = `crash-${size}`;
        const { key, text } = await source(team, size);
        // How long a whole import takes here: the kills fall within it.
        const began = Date.now();
        assert.equal((await call("POST", `/v1/teams/${team}/import`, { key: operator, body: text, type: NDJSON })).status, 201);
        const took = Date.now() - began;
        assert.equal(await state(team, key, size), "whole");
        assert.equal((await call("DELETE", `/v1/teams/${team}`, { key: operator })).status, 204);
        for (let run = 0; run < RUNS; run += 1) {
          const pending = fetch(`${hub.url}/v1/teams/${team}/import`, { method: "POST", headers: { authorization: `Bearer ${operator}`, "content-type": NDJSON }, body: text }).catch(() => null);
          await sleep(Math.random() * took * 0.9);
          await restart();
          await pending;
          const found = await state(team, key, size);
          seen.push(found);
          if (found === "absent") {
            const again = await call("POST", `/v1/teams/${team}/import`, { key: operator, body: text, type: NDJSON });
            assert.equal(again.status, 201, again.text);
            assert.equal(await state(team, key, size), "whole");
          }
          assert.equal((await call("DELETE", `/v1/teams/${team}`, { key: operator })).status, 204);
        }
      }
      // Some kill fell within an import (else the test proved nothing).
      assert.ok(seen.includes("absent"), `states after the kills: ${seen.join(", ")}`);
    });
  });
}
