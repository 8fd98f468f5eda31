// Load loop: median and p99 latency of GET and PUT of a 25,000-character
// memory, N requests each (default 1,000), one after another, against each
// target started for real on 127.0.0.1. Then backup and restore: the time to
// export a team of 100 memories of 25,000 characters, each with its history
// (5 revisions), and to import it again after the team was deleted; and the
// same for a team of 5,000 small memories (one revision each: one memory
// saved, its records copied under 5,000 ids, imported, then timed).
//
//   node bench/hub.mjs [--requests 1000] [--target workerd|deno|both] [--memories 100] [--history 5] [--small 5000]
//
// With --neighbours: the noisy-neighbour case instead. Another team's GET
// of a small memory, timed by a process of its own, p50 and p99 over
// --requests (default 200), idle and then while one team runs team recalls
// over 100 memories of 5,000 characters, or holds event sockets at the
// team's cap while it saves; and team recall over 1, 10 and 100 memories
// of 5,000 characters (p50 of 10, timed once the memories are indexed), by
// words; with --embedder, also while one team saves memories of 25,000
// characters that the hub indexes. The ratios are to the idle GET of the
// same run.
//
//   node bench/hub.mjs --neighbours [--requests 200] [--target workerd|deno|both] [--embedder static]
//
// (--embedder: MEMDOC_HUB_EMBEDDER for both targets, so the recalls are by
// words and meaning; default none, by words alone.)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { startDeno, startWorkerd } from "../hub/run.mjs";

const { values } = parseArgs({
  options: { neighbours: { type: "boolean", default: false }, embedder: { type: "string", default: "none" }, requests: { type: "string", default: "" }, target: { type: "string", default: "both" }, memories: { type: "string", default: "100" }, history: { type: "string", default: "5" }, small: { type: "string", default: "5000" } },
});
const N = Number(values.requests || (values.neighbours ? 200 : 1000));
const operator = "bench-operator-token";
const vars = { MEMDOC_HUB_OPERATOR_TOKEN: operator, MEMDOC_HUB_RATE_PER_MINUTE: "1000000", MEMDOC_HUB_EMBEDDER: values.embedder };

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

/**
 * `n` GETs of `url`, one after another, timed by a Node process of its
 * own (so that the load's answers, read in this one, never delay them).
 */
function timedGets(url, key, n) {
  const script = `
    const [url, key, n] = process.argv.slice(1);
    const ms = [];
    // The first 20 warm the process and its connection, untimed.
    for (let i = -20; i < Number(n); i += 1) {
      const t = performance.now();
      const r = await fetch(url, { headers: { authorization: "Bearer " + key } });
      await r.arrayBuffer();
      if (i >= 0) ms.push(performance.now() - t);
      if (r.status !== 200) throw new Error("GET " + r.status);
    }
    console.log(JSON.stringify(ms));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, url, key, String(n)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the timed GETs exited with ${code}`))));
  });
}

/** Another team's GETs while `load` runs (none: idle); the load is stopped after them. */
async function neighbourGets(hub, { key, path }, load = null) {
  let running = true;
  const loads = load ? [load(() => running)] : [];
  // Let the load start.
  if (load) await new Promise((r) => setTimeout(r, 300));
  const ms = await timedGets(hub.url + path, key, N);
  running = false;
  await Promise.all(loads);
  return stats(ms);
}

/** Once the busy team's saved memories are all indexed (at once without an embedder). */
async function indexed(json, key) {
  for (const start = performance.now(); (await json("GET", "/v1/teams/busy/stats", key)).indexLag > 0; ) {
    if (performance.now() - start > 600_000) throw new Error("the busy team was not indexed in 10 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function neighbours(name, hub) {
  // A new memory's PUT names revision 0.
  const json = (method, path, key, body, type = "application/json") =>
    fetch(hub.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": type, ...(method === "PUT" ? { "if-match": '"0"' } : {}) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }).then(async (r) => {
      const text = await r.text();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 200)}`);
      return text ? JSON.parse(text) : null;
    });
  const quiet = { key: (await json("POST", "/v1/teams", operator, { team: "quiet" })).key, path: "/v1/teams/quiet/memories/team/small" };
  await json("PUT", quiet.path, quiet.key, "## Notes\n- 2025-01-01: a small memory", "text/markdown");
  const busy = (await json("POST", "/v1/teams", operator, { team: "busy" })).key;
  const recallMs = {};
  let made = 0;
  for (const count of [1, 10, 100]) {
    for (; made < count; made += 1) await json("PUT", `/v1/teams/busy/memories/team/m${String(made).padStart(3, "0")}`, busy, memory(5_000, made), "text/markdown");
    // By meaning, the recalls are timed once the memories are indexed (a recall before then reads what is and reports the lag).
    await indexed(json, busy);
    const ms = [];
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      await json("GET", "/v1/teams/busy/recall?q=release%20checks&budget=4000", busy);
      ms.push(performance.now() - t);
    }
    recallMs[count] = stats(ms).median;
  }
  const idle = await neighbourGets(hub, quiet);
  // With an embedder: the busy team saves 25,000-character memories, each indexed after its save.
  let indexing = null;
  if (values.embedder !== "none") {
    let n = 0;
    indexing = await neighbourGets(hub, quiet, async (running) => {
      while (running()) await json("PUT", `/v1/teams/busy/memories/team/large${n++}`, busy, memory(25_000, n), "text/markdown");
    });
  }
  const recalls = await neighbourGets(hub, quiet, async (running) => {
    while (running()) await json("GET", "/v1/teams/busy/recall?q=release%20checks&budget=4000", busy);
  });
  // The team's sockets at its cap (16 keys of 16), and a save a second to send them events.
  const sockets = [];
  for (let k = 0; k < 16; k += 1) {
    const { key } = await json("POST", "/v1/teams/busy/keys", busy, { member: `r${k}`, role: "reader" });
    for (let i = 0; i < 16; i += 1) {
      const ws = new WebSocket(`${hub.url.replace(/^http/, "ws")}/v1/teams/busy/memories/team/m000/events`, ["memdoc", `bearer.${key}`]);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () => reject(new Error("a socket did not open"));
      });
      sockets.push(ws);
    }
  }
  let revision = 1;
  const held = await neighbourGets(hub, quiet, async (running) => {
    while (running()) {
      const r = await fetch(`${hub.url}/v1/teams/busy/memories/team/m000`, {
        method: "PUT",
        headers: { authorization: `Bearer ${busy}`, "content-type": "text/markdown", "if-match": `"${revision}"` },
        body: memory(5_000, `s${revision}`),
      });
      if (r.status !== 200) throw new Error(`PUT ${r.status}`);
      ({ revision } = await r.json());
      await new Promise((r) => setTimeout(r, 1000));
    }
  });
  for (const ws of sockets) ws.close();
  const ratio = (s) => `p50 ${s.median} ms (${(s.median / idle.median).toFixed(2)}x idle), p99 ${s.p99} ms (${(s.p99 / idle.p99).toFixed(2)}x)`;
  console.log(`${name}: another team's GET × ${N}: idle p50 ${idle.median} ms, p99 ${idle.p99} ms; during team recalls over 100 memories: ${ratio(recalls)}; with 256 sockets held and a save a second: ${ratio(held)}`);
  if (indexing) console.log(`${name}: another team's GET while one team saves memories of 25,000 characters (indexed with ${values.embedder}): ${ratio(indexing)}`);
  console.log(`${name}: team recall (embedder ${values.embedder}), p50 of 10: 1 memory ${recallMs[1]} ms, 10 memories ${recallMs[10]} ms, 100 memories ${recallMs[100]} ms (${(recallMs[100] / recallMs[1]).toFixed(1)}x from 1 to 100)`);
}

const work = mkdtempSync(join(tmpdir(), "memdoc-hub-bench-"));
try {
  if (values.target !== "deno") {
    const hub = await startWorkerd({ build: join(work, "build"), persist: join(work, "do"), vars });
    try {
      await (values.neighbours ? neighbours : run)("workerd", hub);
    } finally {
      await hub.stop();
    }
  }
  if (values.target !== "workerd") {
    const hub = await startDeno({ kvPath: work, vars });
    try {
      await (values.neighbours ? neighbours : run)("deno", hub);
    } finally {
      await hub.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
