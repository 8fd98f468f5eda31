// The hub on Deno: Deno.serve over Deno KV. Every memory write is one atomic
// KV commit with a version check (memdoc's Deno KV adapter); events come from
// kv.watch on the memory's head record.
//
//   deno run --unstable-kv --allow-net --allow-env --allow-read --allow-write hub/deno.js
//
// Environment: PORT (default 8787), HOST (default 127.0.0.1), MEMDOC_HUB_KV
// (the KV database path; default Deno's own, or Deno Deploy's KV), and the
// settings of docs/HUB.md ("Limits"), MEMDOC_HUB_OPERATOR_TOKEN first.
import { createHub, hubConfig } from "./src/app.js";
import { CLIENT_MESSAGE_LIMIT, FLOOD_CLOSE, FLOOD_PROBLEM, eventsAfter } from "./src/events.js";
import { denoKvTeamStorage } from "./src/team-storage-deno-kv.js";

const env = Deno.env.toObject();
const config = hubConfig(env);
if (!config.operatorToken) console.error("memdoc hub: MEMDOC_HUB_OPERATOR_TOKEN is not set; teams cannot be created");
const kv = await Deno.openKv(env.MEMDOC_HUB_KV || undefined);

const teams = new Map();
function team(name) {
  let storage = teams.get(name);
  if (!storage) {
    if (teams.size >= 1000) teams.clear();
    storage = denoKvTeamStorage(kv, name);
    teams.set(name, storage);
  }
  return storage;
}

function subscribe({ request, storage, store, ref, after, protocol }) {
  const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol } : {});
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
  socket.onopen = async () => {
    reader = kv.watch([storage.headKey(ref.scope, ref.id)]).getReader();
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
  socket.onclose = () => reader?.cancel().catch(() => {});
  return response;
}

const hub = createHub(config, { team, subscribe });
const port = Number(env.PORT || 8787);
const hostname = env.HOST || "127.0.0.1";
Deno.serve({ port, hostname, onListen: ({ hostname: h, port: p }) => console.log(`memdoc hub: http://${h}:${p}`) }, hub.fetch);
