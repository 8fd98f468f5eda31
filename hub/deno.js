// The hub on Deno: Deno.serve over Deno KV. Every memory write is one atomic
// KV commit with a version check (memdoc's Deno KV adapter); events come from
// kv.watch on the memory's head record.
//
//   deno run --unstable-kv --unstable-cron --allow-net --allow-env --allow-read --allow-write hub/deno.js
//
// Environment: PORT (default 8787), HOST (default 127.0.0.1), MEMDOC_HUB_KV
// (the KV database path; default Deno's own, or Deno Deploy's KV), and the
// settings of docs/HUB.md ("Limits"), MEMDOC_HUB_OPERATOR_TOKEN first.
//
// Lifecycle sweeps run from Deno.cron (MEMDOC_HUB_SWEEP_CRON, default daily
// at 03:17 UTC) over the teams that have policies; with
// MEMDOC_HUB_SWEEP_INTERVAL_SECONDS they run every that many seconds instead.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MemoryStore } from "memdoc";

import { createHub } from "./src/app.js";
import { BoundedMap } from "./src/bounded-map.js";
import { Metrics } from "./src/metrics.js";
import { purgeExpired } from "./src/deletion.js";
import { sweepTasks } from "./src/tasks.js";
import { sweepTeam, utcToday } from "./src/lifecycle.js";
import { SettingError, hubConfig, portSetting, sweepIntervalSeconds } from "./src/settings.js";
import { CLIENT_MESSAGE_LIMIT, EXPIRED, FLOOD_CLOSE, FLOOD_PROBLEM, eventsAfter } from "./src/events.js";
import { denoKvTeamStorage } from "./src/team-storage-deno-kv.js";
import { embedderLoader } from "./src/embedder-setting.js";

const env = Deno.env.toObject();

/** Stop the start with one line (a setting out of range, a folder in use). */
function refuse(message) {
  console.error(`memdoc hub: ${message}`);
  Deno.exit(1);
}

let config;
let port;
let every;
let embedder;
try {
  config = hubConfig(env);
  port = portSetting(env);
  every = sweepIntervalSeconds(env);
  // Recall by meaning: MiniLM by default, or the static table (the weights
  // read from the package), or multilingual-e5-small from the file
  // MEMDOC_HUB_E5_MODEL names.
  embedder = embedderLoader(config.embedder, {
    target: "Deno",
    fallback: "minilm",
    minilm: async () => (await import("memdoc/embedders/minilm")).miniLmEmbedder(),
    static: async () => (await import("memdoc/embedders/static")).staticEmbedder(),
    e5: async (path) => (await import("memdoc/embedders/e5")).e5Embedder({ model: pathToFileURL(resolve(path)) }),
  });
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  refuse(error.message);
}
if (!config.operatorToken) console.error("memdoc hub: MEMDOC_HUB_OPERATOR_TOKEN is not set; teams cannot be created");

// One hub per KV file: a second one would keep rate counters and key
// revocations of its own. The lock is the operating system's, so it goes
// with the process however that ends.
if (env.MEMDOC_HUB_KV) {
  const lock = await Deno.open(`${env.MEMDOC_HUB_KV}.lock`, { create: true, write: true });
  if (!(await lock.tryLock(true))) refuse(`another hub is running on ${env.MEMDOC_HUB_KV}; stop it first`);
}
const kv = await Deno.openKv(env.MEMDOC_HUB_KV || undefined);

const metrics = new Metrics();
let subscribers = 0;

const teams = new BoundedMap(1000);
function team(name) {
  let storage = teams.get(name);
  if (!storage) {
    storage = denoKvTeamStorage(kv, name);
    teams.set(name, storage);
  }
  return storage;
}

/** The open sockets of task memories by storage and tag, told when their memory expires. */
const taskSockets = new WeakMap();

function expired({ storage, tag }) {
  for (const socket of taskSockets.get(storage)?.get(tag) ?? []) {
    if (socket.readyState === WebSocket.OPEN) socket.send(EXPIRED);
  }
}

function subscribe({ request, storage, store, ref, after, protocol, tag, head }) {
  const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol } : {});
  if (tag) {
    let byTag = taskSockets.get(storage);
    if (!byTag) taskSockets.set(storage, (byTag = new Map()));
    if (!byTag.has(tag)) byTag.set(tag, new Set());
    byTag.get(tag).add(socket);
    socket.addEventListener("close", () => {
      byTag.get(tag)?.delete(socket);
      if (byTag.get(tag)?.size === 0) byTag.delete(tag);
    });
  }
  let sent = after;
  let queue = Promise.resolve();
  let reader = null;
  let messages = 0;
  let since = Date.now();
  const push = () => {
    queue = queue
      .then(async () => {
        for (const e of await eventsAfter(store, ref, sent)) {
          if (socket.readyState !== WebSocket.OPEN) return;
          socket.send(JSON.stringify(e));
          sent = e.revision;
        }
      })
      .catch(() => {});
  };
  let counted = false;
  socket.onopen = async () => {
    subscribers += 1;
    counted = true;
    reader = kv.watch([head ? storage.hostKey(head) : storage.headKey(ref.scope, ref.id)]).getReader();
    try {
      for (;;) {
        const { done } = await reader.read();
        if (done) return;
        push();
      }
    } catch {
      // The watch ended with the socket.
    }
  };
  socket.onmessage = () => {
    const now = Date.now();
    if (now - since > 10_000) [since, messages] = [now, 0];
    messages += 1;
    if (messages === CLIENT_MESSAGE_LIMIT + 1) {
      // Deno drops the connection when frames arrive after its close frame:
      // the problem goes first, the close a moment later.
      socket.send(FLOOD_PROBLEM);
      setTimeout(() => socket.close(FLOOD_CLOSE.code, FLOOD_CLOSE.reason), 250);
    }
  };
  socket.onclose = () => {
    if (counted) subscribers -= 1;
    counted = false;
    reader?.cancel().catch(() => {});
  };
  return response;
}

/** Teams with lifecycle policies, under ["hub-sweep", team]. */
async function policiesChanged({ team: name, policies }) {
  if (policies.length === 0) await kv.delete(["hub-sweep", name]);
  else await kv.set(["hub-sweep", name], true);
}

/** Teams with deleted memories to purge or task memories to expire, under ["hub-pending", team]. */
async function scheduleSweep({ team: name }) {
  await kv.set(["hub-pending", name], true);
}

async function teamDeleted({ team: name }) {
  await kv.atomic().delete(["hub-sweep", name]).delete(["hub-pending", name]).commit();
}

/** The scheduled sweep: every team with policies (events come from kv.watch), then the purges. */
export async function sweepAll() {
  const today = utcToday();
  for await (const e of kv.list({ prefix: ["hub-sweep"] })) {
    const storage = team(e.key[1]);
    const store = new MemoryStore(storage.host, { historyDepth: config.historyDepth });
    try {
      await sweepTeam({ storage, store, today, auditMax: config.auditMax, metrics });
    } catch (error) {
      console.error(`memdoc hub: the sweep of team ${e.key[1]} failed: ${error?.message ?? error}`);
    } finally {
      store.free();
    }
  }
  for await (const e of kv.list({ prefix: ["hub-pending"] })) {
    try {
      await purgeExpired({ storage: team(e.key[1]), auditMax: config.auditMax });
      await sweepTasks({ storage: team(e.key[1]), auditMax: config.auditMax, expired });
    } catch (error) {
      console.error(`memdoc hub: the purge of team ${e.key[1]} failed: ${error?.message ?? error}`);
    }
  }
}

if (every !== null) {
  setInterval(sweepAll, every * 1000);
} else if (typeof Deno.cron === "function") {
  try {
    Deno.cron("memdoc hub sweep", env.MEMDOC_HUB_SWEEP_CRON || "17 3 * * *", sweepAll);
  } catch (error) {
    refuse(`MEMDOC_HUB_SWEEP_CRON must be a cron schedule of five fields (minute hour day month weekday), not ${JSON.stringify(env.MEMDOC_HUB_SWEEP_CRON)}: ${error?.message ?? error}`);
  }
} else {
  console.error("memdoc hub: Deno.cron is not available (run with --unstable-cron); lifecycle policies are not swept on a schedule");
}

const hub = createHub(config, { team, subscribe, policiesChanged, metrics, subscribers: () => subscribers, scheduleSweep, teamDeleted, embedder: embedder ?? undefined });
const hostname = env.HOST || "127.0.0.1";
Deno.serve({ port, hostname, onListen: ({ hostname: h, port: p }) => console.log(`memdoc hub: http://${h}:${p}`) }, (request, info) =>
  hub.fetch(request, { client: info.remoteAddr.hostname }),
);
