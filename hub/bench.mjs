// Load loop: median and p99 latency of GET and PUT of a 25,000-character
// memory, N requests each (default 1,000), one after another, against each
// target started for real on 127.0.0.1. Then backup and restore: the time to
// export a team of 100 memories of 25,000 characters, each with its history
// (5 revisions), and to import it again after the team was deleted; and the
// same for a team of 5,000 small memories (one revision each: one memory
// saved, its records copied under 5,000 ids, imported, then timed).
//
//   node hub/bench.mjs [--requests 1000] [--target workerd|deno|both] [--memories 100] [--history 5] [--small 5000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { startDeno, startWorkerd } from "./run.mjs";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "1000" }, target: { type: "string", default: "both" }, memories: { type: "string", default: "100" }, history: { type: "string", default: "5" }, small: { type: "string", default: "5000" } },
});
const N = Number(values.requests);
const operator = "bench-operator-token";
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "1000000" };

/** A team memory of exactly `chars` code points; `variant` changes the last entry. */
function memory(chars, variant) {
  const lines = ["## Decisions"];
  let n = 0;
  while (lines.join("\n").length < chars - 160) lines.push(`- 2025-01-${String((n % 28) + 1).padStart(2, "0")}: decision ${n++} about the release train and its checks`);
  const last = `- 2025-02-01: variant ${variant} `;
  const text = `${lines.join("\n")}\n${last}`;
  return text + "x".repeat(chars - [...text].length);
}

function stats(ms) {
  const s = [...ms].sort((x, y) => x - y);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5).toFixed(2), p99: at(0.99).toFixed(2), max: s[s.length - 1].toFixed(2) };
}

async function run(name, hub) {
  const post = (path, key, body, headers = {}) =>
    fetch(hub.url + path, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers }, body: JSON.stringify(body) }).then((r) => r.json());
  const { key } = await post("/v1/teams", operator, { team: "bench" });
  const path = "/v1/teams/bench/memories/team/big";
  const put = async (revision, variant) => {
    const r = await fetch(hub.url + path, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "text/markdown", "if-match": `"${revision}"` },
      body: memory(25_000, variant),
    });
    const body = await r.json();
    if (r.status !== 200) throw new Error(`PUT ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  let { revision, usage } = await put(0, 0);
  const gets = [];
  for (let i = 0; i < N; i += 1) {
    const t = performance.now();
    const r = await fetch(hub.url + path, { headers: { authorization: `Bearer ${key}` } });
    const body = await r.json();
    gets.push(performance.now() - t);
    if (r.status !== 200 || body.usage.chars !== 25_000) throw new Error(`GET ${r.status}`);
  }
  const puts = [];
  for (let i = 1; i <= N; i += 1) {
    const t = performance.now();
    ({ revision } = await put(revision, i));
    puts.push(performance.now() - t);
  }
  console.log(`${name}: ${usage.chars} chars (${usage.utf8Bytes} bytes); GET × ${N}: ${JSON.stringify(stats(gets))} ms; PUT × ${N}: ${JSON.stringify(stats(puts))} ms; final revision ${revision}`);
  await backup(name, hub);
}

/** The operator's export of `team`, timed, then the team deleted and the export imported, timed. */
async function roundTrip(call, team) {
  let t = performance.now();
  const exported = await (await call("GET", `/v1/teams/${team}/export`, operator)).text();
  const exportMs = performance.now() - t;
  await call("DELETE", `/v1/teams/${team}`, operator);
  t = performance.now();
  const counts = await (await call("POST", `/v1/teams/${team}/import`, operator, exported, "application/x-ndjson")).json();
  return { exported, exportMs, importMs: performance.now() - t, counts };
}

/** Export a team of `--memories` memories of 25,000 characters with `--history` revisions each, delete it, import it. */
async function backup(name, hub) {
  const memories = Number(values.memories);
  const history = Number(values.history);
  const call = async (method, path, key, body, type, headers = {}) => {
    const r = await fetch(hub.url + path, { method, headers: { authorization: `Bearer ${key}`, ...(type ? { "content-type": type } : {}), ...headers }, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${(await r.text()).slice(0, 300)}`);
    return r;
  };
  const team = "bench-backup";
  const { key } = await (await call("POST", "/v1/teams", operator, JSON.stringify({ team }), "application/json")).json();
  for (let i = 0; i < memories; i += 1) {
    for (let r = 0; r < history; r += 1) {
      await fetch(`${hub.url}/v1/teams/${team}/memories/team/m${i}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${key}`, "content-type": "text/markdown", "if-match": `"${r}"` },
        body: memory(25_000, `${i}.${r}`),
      }).then((res) => res.arrayBuffer());
    }
  }
  const { exported, exportMs, importMs, counts } = await roundTrip(call, team);
  if (counts.memories !== memories || counts.revisions !== memories * history) throw new Error(`import counts ${JSON.stringify(counts)}`);
  console.log(
    `${name}: backup of ${memories} memories of 25,000 chars × ${history} revisions (${(exported.length / 1e6).toFixed(1)} MB of NDJSON): export ${exportMs.toFixed(0)} ms; import ${importMs.toFixed(0)} ms`,
  );
  await small(name, hub, call);
}

/** Export and import a team of `--small` small memories, made by copying one saved memory's records under new ids. */
async function small(name, hub, call) {
  const count = Number(values.small);
  const team = "bench-small";
  const { key } = await (await call("POST", "/v1/teams", operator, JSON.stringify({ team }), "application/json")).json();
  await call("PUT", `/v1/teams/${team}/memories/team/m0`, key, "## Facts\n- 2025-01-01: a small fact", "text/markdown", { "if-match": '"0"' });
  const lines = (await (await call("GET", `/v1/teams/${team}/export`, operator)).text()).trimEnd().split("\n");
  const records = lines.map((l) => JSON.parse(l));
  const memory = records.find((r) => r.type === "memory");
  const revision = records.find((r) => r.type === "revision");
  const rename = (text, id) => text.replaceAll('"id":"m0"', `"id":"${id}"`).replaceAll("memdoc/team/m0/", `memdoc/team/${id}/`);
  const copies = [];
  for (let i = 0; i < count; i += 1) {
    const id = `m${String(i).padStart(5, "0")}`;
    copies.push(JSON.stringify({ ...memory, id, head: rename(memory.head, id) }), JSON.stringify({ ...revision, id, key: rename(revision.key, id), value: rename(revision.value, id) }));
  }
  const text = [...lines.filter((l, i) => records[i].type !== "memory" && records[i].type !== "revision" && records[i].type !== "audit"), ...copies].join("\n");
  await call("DELETE", `/v1/teams/${team}`, operator);
  await call("POST", `/v1/teams/${team}/import`, operator, text, "application/x-ndjson");
  const { exported, exportMs, importMs, counts } = await roundTrip(call, team);
  if (counts.memories !== count) throw new Error(`import counts ${JSON.stringify(counts)}`);
  console.log(`${name}: backup of ${count} small memories (${(exported.length / 1e6).toFixed(1)} MB of NDJSON): export ${exportMs.toFixed(0)} ms; import ${importMs.toFixed(0)} ms`);
}

const work = mkdtempSync(join(tmpdir(), "memdoc-hub-bench-"));
try {
  if (values.target !== "deno") {
    const hub = await startWorkerd({ build: join(work, "build"), persist: join(work, "do"), vars });
    try {
      await run("workerd", hub);
    } finally {
      await hub.stop();
    }
  }
  if (values.target !== "workerd") {
    const hub = await startDeno({ kvPath: work, vars });
    try {
      await run("deno", hub);
    } finally {
      await hub.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
