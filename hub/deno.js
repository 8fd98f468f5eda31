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

import { createHub } from "./src/app.js";
import { BoundedMap } from "./src/bounded-map.js";
import { Metrics } from "./src/metrics.js";
import { purgeExpired } from "./src/deletion.js";
import { sweepTasks } from "./src/tasks.js";
import { utcToday } from "./src/dates.js";
import { sweepTeam } from "./src/lifecycle.js";
import { SettingError, hubConfig, portSetting, sweepIntervalSeconds } from "./src/settings.js";
import { CLIENT_MESSAGE_LIMIT, EXPIRED, FLOOD_CLOSE, FLOOD_PROBLEM, closeAtExpiry, fanOut } from "./src/events.js";
import { memoryStore } from "./src/data/memories.js";
import { denoKvTeamStorage } from "./src/data/storage-deno-kv.js";
import { embedderLoader } from "./src/embedder-setting.js";
import { embedderThread } from "./src/deno-embedder-thread.js";
import { operationTurn, slicedTurn } from "./src/turns.js";
import { RequestsInFlight } from "./src/requests-in-flight.js";

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
  // MEMDOC_HUB_E5_MODEL names; each in a thread of its own, so that
  // embedding never holds the requests.
  embedder = embedderLoader(config.embedder, {
    target: "Deno",
    fallback: "minilm",
    minilm: () => embedderThread("minilm"),
    static: () => embedderThread("static"),
    e5: (path) => embedderThread("e5", pathToFileURL(resolve(path)).href),
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

/**
 * The storage of a team that exists (or, `create`, is being created), null
 * otherwise: a key of a made-up team gets no handle. Handles are cached;
 * nothing depends on one staying cached (serial.js queues by team id).
 */
const teams = new BoundedMap(1000);
async function team(name, { create = false } = {}) {
  let storage = teams.get(name);
  if (!storage) {
    if (!create && (await kv.get(["hub", name, "team"])).versionstamp === null) return null;
    storage = denoKvTeamStorage(kv, name);
    teams.set(name, storage);
  }
  return storage;
}

/**
 * The open event sockets of each team (by storage id), and one kv.watch per
 * watched memory shared by all its sockets: a change is one history load
 * for all of them (events.js `fanOut`), sent in order.
 * @type {Map<string, Set<{ socket: WebSocket, keyId: string, member: string, tag: string | null, sent: number, send: (text: string) => void, close: (c: { code: number, reason: string }) => void }>>}
 */
const open = new Map();
const watches = new Map();

/** Tell the subscribers of an expired task memory. */
function expired({ storage, tag }) {
  for (const s of open.get(storage.id) ?? []) {
    if (s.tag === tag && s.socket.readyState === WebSocket.OPEN) s.socket.send(EXPIRED);
  }
}

function openSockets({ storage, keyId }) {
  const all = open.get(storage.id) ?? new Set();
  let key = 0;
  for (const s of all) if (s.keyId === keyId) key += 1;
  return { key, team: all.size };
}

function closeSockets({ storage, keyId, member, close }) {
  for (const s of open.get(storage.id) ?? []) {
    if ((keyId === undefined || s.keyId === keyId) && (member === undefined || s.member === member)) s.close(close);
  }
}

/** Join the watch of `key` (a KV key), made for its first socket and ended with its last. */
function watch(storage, store, ref, key, s) {
  const name = JSON.stringify(key);
  let w = watches.get(name);
  if (!w) {
    w = { subscribers: new Set(), queue: Promise.resolve(), reader: kv.watch([key]).getReader() };
    watches.set(name, w);
    const reader = w.reader;
    (async () => {
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) return;
          w.queue = w.queue.then(() => fanOut(storage, store, ref, [...w.subscribers].filter((x) => x.socket.readyState === WebSocket.OPEN))).catch(() => {});
        }
      } catch {
        // The watch ended with its last socket.
      }
    })();
  }
  w.subscribers.add(s);
  // A revision saved since the socket's load, before it joined the watch.
  w.queue = w.queue.then(() => fanOut(storage, store, ref, [s])).catch(() => {});
  return () => {
    w.subscribers.delete(s);
    if (w.subscribers.size === 0 && watches.get(name) === w) {
      watches.delete(name);
      w.reader.cancel().catch(() => {});
    }
  };
}

function subscribe({ request, storage, store, ref, after, protocol, tag, keyId, member, expiresAt }) {
  const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol } : {});
  let closing = null;
  const s = {
    socket,
    keyId,
    member,
    tag: tag ?? null,
    sent: after,
    send: (text) => socket.send(text),
    close: ({ code, reason }) => {
      try {
        socket.close(code, reason);
      } catch {
        // Closed already, or not open yet (then closed at its open).
        closing = { code, reason };
      }
    },
  };
  // Counted from the upgrade on: the caps hold for sockets still opening.
  if (!open.has(storage.id)) open.set(storage.id, new Set());
  open.get(storage.id).add(s);
  let leave = null;
  const stopTimer = closeAtExpiry(expiresAt, s.close);
  let messages = 0;
  let since = Date.now();
  socket.onopen = () => {
    if (closing) return socket.close(closing.code, closing.reason);
    leave = watch(storage, store, ref, storage.hostKey(store.headKey(ref)), s);
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
    const team = open.get(storage.id);
    team?.delete(s);
    if (team?.size === 0) open.delete(storage.id);
    leave?.();
    leave = null;
    stopTimer();
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
  teams.delete(name);
  await kv.atomic().delete(["hub-sweep", name]).delete(["hub-pending", name]).commit();
}

/** The scheduled sweep: every team with policies (events come from kv.watch), then the purges. */
export async function sweepAll() {
  const today = utcToday();
  for await (const e of kv.list({ prefix: ["hub-sweep"] })) {
    const storage = await team(e.key[1]);
    if (!storage) continue;
    const store = memoryStore(storage, { historyDepth: config.historyDepth });
    try {
      await sweepTeam({ storage, store, today, auditMax: config.auditMax, metrics });
    } catch (error) {
      console.error(`memdoc hub: the sweep of team ${e.key[1]} failed: ${error?.message ?? error}`);
    } finally {
      store.free();
    }
  }
  for await (const e of kv.list({ prefix: ["hub-pending"] })) {
    const storage = await team(e.key[1]);
    if (!storage) continue;
    try {
      await purgeExpired({ storage, auditMax: config.auditMax });
      await sweepTasks({ storage, auditMax: config.auditMax, expired });
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

const subscribers = () => [...open.values()].reduce((n, sockets) => n + sockets.size, 0);
// Long work gives the thread to other requests every SLICE_MS (src/turns.js):
// it waits while a short request is in flight (src/requests-in-flight.js),
// else it takes its turn by way of an asynchronous operation (a timer turn
// would cost 1 to 3 ms of waiting each).
const SLICE_MS = 1;
const inFlight = new RequestsInFlight();
const turn = slicedTurn(SLICE_MS, inFlight.turn(operationTurn));
const hub = createHub(config, { team, subscribe, openSockets, closeSockets, policiesChanged, metrics, subscribers, scheduleSweep, teamDeleted, embedder: embedder ?? undefined, turn });
const hostname = env.HOST || "127.0.0.1";
Deno.serve({ port, hostname, onListen: ({ hostname: h, port: p }) => console.log(`memdoc hub: http://${h}:${p}`) }, (request, info) =>
  inFlight.run(() => hub.fetch(request, { client: info.remoteAddr.hostname })),
);
