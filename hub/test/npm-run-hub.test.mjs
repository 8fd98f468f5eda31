// `npm run hub` as a newcomer runs it: the setup (a no-op once done), the
// Worker in workerd on 127.0.0.1, the two lines it prints, a generated
// operator token kept in the state folder, and state that survives a
// restart.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { startNpmRunHub } from "./npm-run-hub.mjs";
import { usedContent, usedSecret } from "./used.mjs";

const state = mkdtempSync(join(tmpdir(), "memdoc-hub-state-"));
after(() => rmSync(state, { recursive: true, force: true }));

/** Start `npm run hub` on the state folder of this file. */
const start = () => startNpmRunHub(state);

test("npm run hub serves the Worker, prints its URL and a generated operator token, and keeps its state", { timeout: 300_000 }, async () => {
  const first = await start();
  let key;
  try {
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    usedSecret(first.token);
    const made = await fetch(`${first.url}/v1/teams`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.token}`, "content-type": "application/json" },
      body: JSON.stringify({ team: "newcomers" }),
    });
    assert.equal(made.status, 201);
    key = (await made.json()).key;
    usedSecret(key);
    const content = "## Notes\n- 2025-01-01: kept across restarts";
    usedContent(content);
    const saved = await fetch(`${first.url}/v1/teams/newcomers/memories/team/notes`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "text/markdown", "if-match": '"0"' },
      body: content,
    });
    assert.equal(saved.status, 200);
  } finally {
    await first.stop();
  }
  const file = join(state, "operator-token");
  assert.equal(readFileSync(file, "utf8").trim(), first.token);
  assert.equal(statSync(file).mode & 0o077, 0, "only the owner may read the token");

  const second = await start();
  try {
    assert.equal(second.token, first.token, "the same token after a restart");
    const read = await fetch(`${second.url}/v1/teams/newcomers/memories/team/notes`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(read.status, 200);
    assert.equal((await read.json()).revision, 1);
  } finally {
    await second.stop();
  }
});
