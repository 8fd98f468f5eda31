// `npm run hub:verify -- URL --operator-token TOKEN`: the team-memory
// verification list run against any hub (docs/HUB.md, "Verifying a hub").
// It creates two teams, works in them as two agents and an outsider, and
// deletes what it created. One line per step: pass, fail or skip, with its
// milliseconds; the exit code is 1 when a step failed.
import { randomBytes } from "node:crypto";

const USAGE = "usage: npm run hub:verify -- URL --operator-token TOKEN (or MEMDOC_HUB_OPERATOR_TOKEN)";

function parseArgs(argv) {
  let url;
  let token = process.env.MEMDOC_HUB_OPERATOR_TOKEN;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--operator-token") token = argv[++i];
    else if (argv[i].startsWith("--operator-token=")) token = argv[i].slice("--operator-token=".length);
    else if (url === undefined && !argv[i].startsWith("-")) url = argv[i];
    else throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
  }
  if (!url || !token) throw new Error(USAGE);
  return { url: url.replace(/\/$/, ""), token };
}

/** One HTTP call: `{status, json, text}`. */
async function call(base, method, path, { key, body, headers = {} } = {}) {
  const h = { ...headers };
  if (key) h.authorization = `Bearer ${key}`;
  let payload;
  if (typeof body === "string") {
    payload = body;
    h["content-type"] = "text/markdown";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    h["content-type"] = "application/json";
  }
  const response = await fetch(base + path, { method, headers: h, body: payload });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON.
  }
  return { status: response.status, json, text };
}

class Failed extends Error {}
class Skipped extends Error {}

function expect(what, r, status) {
  if (r.status !== status) throw new Failed(`${what}: expected ${status}, got ${r.status} ${r.json?.code ?? r.text.slice(0, 120)}`);
  return r;
}

// Entries dated long ago: under a policy of one day, the sweep of any day
// after 2025-01-02 expires the open question.
const MEMORY = [
  "## Decisions",
  "- 2025-01-03: Invoices are stored in Postgres, one schema per customer #billing #storage #database",
  "## Open Questions",
  "- 2025-01-01: Should the nightly reindex move to Sundays? #search #schedule",
].join("\n");
const UPDATED = `${MEMORY}\n- 2025-01-02: Who owns the on-call rota for billing? #people #oncall`;

export async function verify({ url, token }, out = (line) => console.log(line)) {
  const suffix = randomBytes(4).toString("hex");
  const teamA = `verify-${suffix}`;
  const teamB = `verify-${suffix}-other`;
  const memory = `/v1/teams/${teamA}/memories/team/verify-notes`;
  const s = {};
  let failed = 0;
  const step = async (name, run) => {
    const started = performance.now();
    let outcome = "pass";
    let note = "";
    try {
      note = (await run()) ?? "";
    } catch (error) {
      outcome = error instanceof Skipped ? "skip" : "fail";
      note = error instanceof Failed || error instanceof Skipped ? error.message : `${error?.message ?? error}`;
    }
    if (outcome === "fail") failed += 1;
    const ms = Math.round(performance.now() - started);
    out(`${outcome.padEnd(4)} ${String(ms).padStart(6)} ms  ${name}${note ? `: ${note}` : ""}`);
    return outcome === "pass";
  };
  const op = (method, path, body) => call(url, method, path, { key: token, body });

  const created = await step("create a team with two writer agents, and a second team", async () => {
    const a = expect(`POST /v1/teams ${teamA}`, await op("POST", "/v1/teams", { team: teamA, admin: "verify-admin" }), 201);
    s.admin = a.json.key;
    s.created = [teamA];
    for (const agent of ["agent-a", "agent-b"]) {
      s[agent] = expect(`key for ${agent}`, await call(url, "POST", `/v1/teams/${teamA}/keys`, { key: s.admin, body: { member: agent, role: "writer", label: "hub:verify" } }), 201).json.key;
    }
    const b = expect(`POST /v1/teams ${teamB}`, await op("POST", "/v1/teams", { team: teamB, admin: "verify-outsider" }), 201);
    s.outsider = b.json.key;
    s.created.push(teamB);
    return `${teamA}, ${teamB}`;
  });
  if (created) {
    await step("agent A writes a memory with tags of meaning", async () => {
      const r = expect("PUT", await call(url, "PUT", memory, { key: s["agent-a"], body: MEMORY, headers: { "if-match": '"0"' } }), 200);
      s.revision = r.json.revision;
      return `revision ${s.revision}`;
    });
    await step("agent B recalls it by its words", async () => {
      const r = expect("recall", await call(url, "GET", `${memory}/recall?q=${encodeURIComponent("invoices postgres")}`, { key: s["agent-b"] }), 200);
      if (!r.json.selected?.[0]?.text?.includes("Invoices are stored in Postgres")) throw new Failed(`the first recalled entry is ${JSON.stringify(r.json.selected?.[0]?.text)}`);
    });
    await step("agent B recalls it with a question in other words", async () => {
      const stats = expect("stats", await call(url, "GET", `/v1/teams/${teamA}/stats`, { key: s.admin }), 200);
      if (stats.json.indexLag === null) throw new Skipped("no embedder is configured on the hub (its recall is lexical)");
      const r = expect("recall", await call(url, "GET", `${memory}/recall?q=${encodeURIComponent("where do we keep customer bills?")}`, { key: s["agent-b"] }), 200);
      // The entry ranked first (by relevance), not merely the first one listed.
      const best = (r.json.selected ?? []).reduce((a, b) => (a === null || b.why.relevance > a.why.relevance ? b : a), null);
      if (r.json.semantic?.degraded) throw new Failed(`the hub's embedder failed (${r.json.semantic.degraded}): ${r.json.semantic.message ?? ""}`);
      if (!best?.text?.includes("Invoices")) throw new Failed(`the paraphrased question recalled ${JSON.stringify(best?.text ?? null)} first, not the entry`);
      return `${r.json.semantic?.model}, relevance ${best.why.relevance}`;
    });
    await step("the second team's key gets 404 for it", async () => {
      for (const path of [memory, `${memory}/recall?q=invoices`, `${memory}/history`]) expect(`GET ${path}`, await call(url, "GET", path, { key: s.outsider }), 404);
      expect("PUT", await call(url, "PUT", memory, { key: s.outsider, body: "- overwritten", headers: { "if-match": `"${s.revision}"` } }), 404);
    });
    await step("agent A's update changes the revision; a stale update gets 412", async () => {
      const r = expect("update", await call(url, "PUT", memory, { key: s["agent-a"], body: UPDATED, headers: { "if-match": `"${s.revision}"` } }), 200);
      if (!(r.json.revision > s.revision)) throw new Failed(`the revision stayed ${r.json.revision}`);
      const stale = expect("stale update", await call(url, "PUT", memory, { key: s["agent-b"], body: `${MEMORY}\n- 2025-01-02: stale`, headers: { "if-match": `"${s.revision}"` } }), 412);
      if (stale.json?.currentRevision !== r.json.revision) throw new Failed(`412 names revision ${stale.json?.currentRevision}, not ${r.json.revision}`);
      return `revision ${s.revision} → ${r.json.revision}`;
    });
    await step("a policy and a sweep expire an entry, which is then no longer recalled", async () => {
      expect("policies", await call(url, "PUT", `/v1/teams/${teamA}/policies`, { key: s.admin, body: { policies: [{ section: "Open Questions", maxAgeDays: 1 }] } }), 200);
      const swept = expect("sweep", await call(url, "POST", `/v1/teams/${teamA}/sweep`, { key: s.admin }), 200);
      if (swept.json.archived < 1) throw new Failed(`the sweep archived ${swept.json.archived} entries`);
      const r = expect("recall", await call(url, "GET", `${memory}/recall?q=${encodeURIComponent("nightly reindex sundays")}`, { key: s["agent-b"] }), 200);
      if ((r.json.selected ?? []).some((item) => item.text.includes("nightly reindex"))) throw new Failed("the expired entry is still recalled");
      return `${swept.json.archived} archived`;
    });
  }
  await step("delete what it created", async () => {
    const left = [];
    for (const team of s.created ?? []) {
      const r = await op("DELETE", `/v1/teams/${team}`);
      if (r.status === 204) continue;
      // A hub without DELETE /v1/teams/{team}: what a team admin can undo.
      if (r.json?.code === "http/not-found" || r.json?.code === "http/method-not-allowed") {
        if (team === teamA && s.admin) await call(url, "PUT", `/v1/teams/${teamA}/policies`, { key: s.admin, body: { policies: [] } });
        left.push(team);
        continue;
      }
      expect(`DELETE /v1/teams/${team}`, r, 204);
    }
    // Gone: the first team's admin key is refused.
    if (left.length === 0 && s.admin) expect("the deleted team's admin key", await call(url, "GET", "/v1/whoami", { key: s.admin }), 401);
    if (left.length) throw new Skipped(`this hub has no DELETE /v1/teams/{team}; its policies cleared, left: ${left.join(", ")}`);
    return (s.created ?? []).join(", ");
  });
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`hub:verify: ${error.message}`);
    process.exit(2);
  }
  const failed = await verify(args);
  console.log(failed === 0 ? "hub:verify: every step passed" : `hub:verify: ${failed} step(s) failed`);
  process.exit(failed === 0 ? 0 : 1);
}
