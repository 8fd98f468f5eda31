// From `npm run hub` to an agent recalling what a teammate saved, as
// README.md and docs/HUB.md ("Connect an agent") tell a newcomer: the hub
// started with no setting (recall by meaning, the static table), its root
// page and next step, a team and keys made with `memdoc hub` (the package's
// bin), a teammate's save, and examples/agent.mjs (the official MCP SDK)
// answering a question worded unlike the entry it finds.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { root } from "../run.mjs";
import { startNpmRunHub } from "./npm-run-hub.mjs";
import { usedContent, usedSecret } from "./used.mjs";

const state = mkdtempSync(join(tmpdir(), "memdoc-agent-example-"));
const work = mkdtempSync(join(tmpdir(), "memdoc-agent-example-work-"));
after(() => [state, work].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// Not spawnSync: a blocked event loop misses the hub closing an idle
// connection, and the next fetch on it fails.
const run = promisify(execFile);

const QUESTION = "which relational database do we use";
// The entry shares no word with the question; the others are there to be passed over.
const DECISIONS = "## Decisions\n- 2025-03-01: Our services keep their data in PostgreSQL 16\n- 2025-03-02: Deploys are frozen on Fridays\n- 2025-03-03: The team chats in Slack, channel eng\n";

test("npm run hub recalls by meaning with no setting, and examples/agent.mjs recalls a teammate's entry over MCP", { timeout: 600_000 }, async () => {
  const hub = await startNpmRunHub(state);
  try {
    usedSecret(hub.token);
    const printed = hub.printed();
    assert.match(printed, /^recall: by meaning \(the static table\)$/m);
    assert.match(printed, /^next: make a team and its first admin key, then connect an agent/m);
    assert.match(printed, /^ {2}npx memdoc hub team create my-team$/m);

    const page = await fetch(`${hub.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type"), /^text\/html/);
    const html = await page.text();
    const { version } = JSON.parse(readFileSync(join(root, "pkg", "package.json"), "utf8"));
    assert.match(html, new RegExp(`<h1>memdoc hub ${version.replaceAll(".", "\\.")}</h1>`));
    for (const link of ['href="/healthz"', "POST /mcp", "docs/HUB.md"]) assert.ok(html.includes(link), `the page names ${link}`);

    // The steps of "Connect an agent", with `npx memdoc` of this repository.
    const memdoc = async (args, env) => (await run("npx", ["--no-install", "memdoc", "hub", ...args], { cwd: root, env: { ...process.env, MEMDOC_HUB_URL: hub.url, ...env } })).stdout.trim();
    const admin = await memdoc(["team", "create", "acme"], { MEMDOC_HUB_OPERATOR_TOKEN: hub.token });
    const bob = await memdoc(["key", "create", "acme", "bob", "--role", "writer"], { MEMDOC_HUB_KEY: admin });
    const alice = await memdoc(["key", "create", "acme", "alice", "--role", "reader"], { MEMDOC_HUB_KEY: admin });
    [admin, bob, alice].forEach(usedSecret);
    usedContent(DECISIONS);
    const file = join(work, "decisions.md");
    writeFileSync(file, DECISIONS);
    assert.equal(await memdoc(["push", file, "acme", "team", "decisions", "--revision", "0"], { MEMDOC_HUB_KEY: bob }), "1");

    // By meaning, not degraded: the hub's own answer.
    const recall = await fetch(`${hub.url}/v1/teams/acme/recall?q=${encodeURIComponent(QUESTION)}`, { headers: { authorization: `Bearer ${alice}` } });
    assert.equal(recall.status, 200);
    const recalled = await recall.json();
    assert.equal(recalled.semantic?.degraded, null, JSON.stringify(recalled.semantic));
    assert.match(recalled.semantic.model, /static/);
    assert.match(recalled.selected[0].text, /PostgreSQL 16/);

    const agent = await run("node", ["examples/agent.mjs", QUESTION], { cwd: root, env: { ...process.env, MEMDOC_HUB_URL: hub.url, MEMDOC_HUB_KEY: alice } });
    const lines = agent.stdout.split("\n").filter((l) => l.startsWith("- ["));
    assert.match(lines[0] ?? "", /^- \[team\/decisions · Decisions\] Our services keep their data in PostgreSQL 16$/, agent.stdout);
  } catch (error) {
    const cause = error.cause?.message ? ` (${error.cause.message})` : "";
    throw new Error(`${error.message}${cause}\nnpm run hub printed:\n${hub.printed()}\n${hub.errors()}`, { cause: error });
  } finally {
    await hub.stop();
  }
});
