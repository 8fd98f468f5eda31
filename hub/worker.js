// The hub on Cloudflare Workers: one Durable Object per team holds that
// team's keys, audit log and memories in its transactional storage, and runs
// the hub application (src/app.js) for every request of that team's keys.
// The Worker only routes: a team route to the Durable Object of the key's
// team (so a key used on another team's path is answered there, with 404),
// the operator's team creation to the new team's object, anything else to
// an application without storage (health, unknown routes, 401s).
import { DurableObject, env as startEnv } from "cloudflare:workers";

import { CORS_HEADERS, createHub, hubConfig } from "./src/app.js";
import { readCapped } from "./src/body.js";
import { CLIENT_MESSAGE_LIMIT, EXPIRED, FLOOD_CLOSE, FLOOD_PROBLEM, closeAtExpiry, fanOut } from "./src/events.js";
import { TEAM_ID, parseKey, requestKey } from "./src/keys.js";
import { hasDeleted, purgeExpired } from "./src/deletion.js";
import { hasTasks, sweepTasks } from "./src/tasks.js";
import { utcToday } from "./src/dates.js";
import { sweepTeam } from "./src/lifecycle.js";
import { readPolicies } from "./src/policies.js";
import { Metrics } from "./src/metrics.js";
import { requestIdOf } from "./src/request-log.js";
import { sweepIntervalSeconds } from "./src/settings.js";
import { embedderLoader, workerTarget } from "./src/embedder-setting.js";
import { bundledEmbedders } from "./src/worker-embedders.js";
import { HubProblem, toResponse } from "./src/problem.js";
import { memoryStore } from "./src/data/memories.js";
import { durableObjectTeamStorage } from "./src/data/storage-durable-object.js";
import { readTeam } from "./src/data/team.js";

// The settings are checked when the Worker starts (and so when it is
// deployed): one out of range stops it with its name and range.
const config = hubConfig(startEnv);
// Recall by meaning: Workers AI when the Worker has an AI binding, else
// words alone, unless MEMDOC_HUB_EMBEDDER says otherwise (MiniLM does not
// fit a Worker isolate: refused here; the static table only in the build
// that carries it, worker-static.js).
const embedder = embedderLoader(config.embedder, workerTarget({ ai: startEnv.AI, bundled: bundledEmbedders }));

const tagOf = (ref) => `${ref.scope}/${ref.id}`;
const keyTag = (keyId) => `key:${keyId}`;
/** A socket whose key ends within this is closed by a timer at the end (docs/HUB.md, "Limits"). */
const EXPIRY_TIMER_MS = 10 * 60_000;
const memberTag = (member) => `member:${member}`;

function closeSocket(ws, { code, reason }) {
  try {
    ws.close(code, reason);
  } catch {
    // Already closed.
  }
}

/**
 * The Durable Object that lists the teams (by name: no team id starts with
 * "_"), for `GET /metrics` to add up every team's counts. Paths under
 * /__hub/ are the objects' own: the Worker never forwards them.
 */
const REGISTRY = "__registry";
const INTERNAL = "https://hub.internal/__hub";

/** Every team's metrics snapshot, asked of each team's object, 50 at a time. */
async function teamSnapshots(env) {
  const objectOf = (name) => env.TEAMS.get(env.TEAMS.idFromName(name));
  const teams = await (await objectOf(REGISTRY).fetch(`${INTERNAL}/teams`)).json();
  const out = [];
  for (let i = 0; i < teams.length; i += 50) {
    out.push(...(await Promise.all(teams.slice(i, i + 50).map(async (team) => (await objectOf(team).fetch(`${INTERNAL}/metrics`)).json()))));
  }
  return out;
}

/** Who sent a request, as the refusals of unknown keys count clients (Cloudflare sets the header). */
const clientOf = (request) => ({ client: request.headers.get("cf-connecting-ip") ?? "unknown" });

export class Team extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.storage = durableObjectTeamStorage(ctx.storage, ctx.id);
    this.queue = Promise.resolve();
    this.config = config;
    // Lifecycle sweeps: an alarm every interval (default a day) while the
    // team has policies.
    this.sweepEveryMs = (sweepIntervalSeconds(env) ?? 86_400) * 1000;
    this.changed = (s) => {
      // Not awaited: the save answers at once; broadcasts stay in order.
      this.queue = this.queue.then(() => this.broadcast(s.store, s.ref, s.tag)).catch(() => {});
    };
    this.metrics = new Metrics();
    this.registered = false;
    this.hub = createHub(this.config, {
      team: () => this.storage,
      subscribe: (s) => this.subscribe(s),
      changed: this.changed,
      policiesChanged: ({ policies }) => this.schedule(policies),
      metrics: this.metrics,
      subscribers: () => this.ctx.getWebSockets().length,
      openSockets: ({ keyId }) => ({ key: this.ctx.getWebSockets(keyTag(keyId)).length, team: this.ctx.getWebSockets().length }),
      closeSockets: ({ keyId, member, close }) => {
        for (const ws of this.ctx.getWebSockets(keyId !== undefined ? keyTag(keyId) : member !== undefined ? memberTag(member) : undefined)) closeSocket(ws, close);
      },
      scheduleSweep: async () => this.schedule(await readPolicies(this.storage)),
      teamDeleted: () => this.ctx.storage.deleteAlarm(),
      embedder: embedder ?? undefined,
      background: (work) => this.ctx.waitUntil(work),
    });
  }

  /** An alarm while the team has policies, deleted memories to purge or task memories to expire. */
  async schedule(policies) {
    if (policies.length === 0 && !(await hasDeleted(this.storage)) && !(await hasTasks(this.storage))) return this.ctx.storage.deleteAlarm();
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + this.sweepEveryMs);
  }

  // A failed alarm is retried by the runtime; a sweep is idempotent.
  async alarm() {
    // Not freed: the broadcasts queued by `changed` read with it.
    const store = memoryStore(this.storage, { historyDepth: this.config.historyDepth });
    await sweepTeam({ storage: this.storage, store, today: utcToday(), auditMax: this.config.auditMax, changed: this.changed, metrics: this.metrics });
    await purgeExpired({ storage: this.storage, auditMax: this.config.auditMax });
    await sweepTasks({ storage: this.storage, auditMax: this.config.auditMax, expired: ({ tag }) => this.expired(tag) });
    await this.schedule(await readPolicies(this.storage));
  }

  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/__hub/")) return this.internal(request, pathname);
    const response = await this.hub.fetch(request, clientOf(request));
    if (!this.registered) await this.register();
    return response;
  }

  /** Once per object's life, once the team exists: named in the registry. */
  async register() {
    const team = (await readTeam(this.storage))?.team;
    if (team === undefined) return;
    try {
      await this.env.TEAMS.get(this.env.TEAMS.idFromName(REGISTRY)).fetch(`${INTERNAL}/register`, { method: "POST", body: team });
      this.registered = true;
    } catch {
      // Tried again on the next request.
    }
  }

  async internal(request, pathname) {
    if (pathname === "/__hub/metrics") return Response.json(this.metrics.snapshot(this.ctx.getWebSockets().length));
    if (pathname === "/__hub/register") {
      await this.ctx.storage.put(`registry/${await request.text()}`, true);
      return new Response(null, { status: 204 });
    }
    if (pathname === "/__hub/teams") return Response.json(Array.from((await this.ctx.storage.list({ prefix: "registry/" })).keys(), (k) => k.slice(9)));
    return new Response(null, { status: 404 });
  }

  subscribe({ ref, after, protocol, tag, keyId, member, expiresAt }) {
    const [client, server] = Object.values(new WebSocketPair());
    // The hibernation API: the object may sleep while sockets stay open.
    // Tagged by memory, key and member: a revocation finds its sockets.
    this.ctx.acceptWebSocket(server, [tag ?? tagOf(ref), keyTag(keyId), memberTag(member)]);
    server.serializeAttachment({ ref, keyId, sent: after, messages: 0, since: Date.now() });
    // A timer keeps the object from hibernating: only for a key that ends
    // within EXPIRY_TIMER_MS; a later end closes it at the first change after.
    closeAtExpiry(expiresAt, (close) => closeSocket(server, close), EXPIRY_TIMER_MS);
    const headers = protocol ? { "sec-websocket-protocol": protocol } : {};
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  /** Tell the subscribers of an expired task memory. */
  expired(tag) {
    for (const ws of this.ctx.getWebSockets(tag)) {
      try {
        ws.send(EXPIRED);
      } catch {
        // A socket that closed meanwhile.
      }
    }
  }

  async broadcast(store, ref, tag = tagOf(ref)) {
    const sockets = this.ctx.getWebSockets(tag);
    if (sockets.length === 0) return;
    const subscribers = sockets.map((ws) => {
      const a = ws.deserializeAttachment();
      return {
        keyId: a.keyId,
        sent: a.sent,
        send: (text) => {
          try {
            ws.send(text);
          } catch {
            // A socket that closed meanwhile.
          }
        },
        close: (close) => closeSocket(ws, close),
        ws,
        a,
      };
    });
    await fanOut(this.storage, store, ref, subscribers);
    for (const s of subscribers) {
      try {
        if (s.sent !== s.a.sent) s.ws.serializeAttachment({ ...s.a, sent: s.sent });
      } catch {
        // A socket that closed meanwhile.
      }
    }
  }

  webSocketMessage(ws) {
    // Subscribers have nothing to say; a flood closes the socket.
    const a = ws.deserializeAttachment();
    const now = Date.now();
    if (now - a.since > 10_000) Object.assign(a, { since: now, messages: 0 });
    a.messages += 1;
    ws.serializeAttachment(a);
    if (a.messages === CLIENT_MESSAGE_LIMIT + 1) {
      ws.send(FLOOD_PROBLEM);
      ws.close(FLOOD_CLOSE.code, FLOOD_CLOSE.reason);
    }
  }

  webSocketClose(ws, code) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // Already closed.
    }
  }
}

let edge;
let edgeMetrics;

function withCors(response, request) {
  const r = new Response(response.body, response);
  for (const [k, v] of Object.entries(CORS_HEADERS)) r.headers.set(k, v);
  r.headers.set("x-request-id", requestIdOf(request.headers.get("x-request-id")));
  return r;
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    const teamOf = (team) => env.TEAMS.get(env.TEAMS.idFromName(team));
    const operator = config.operatorToken !== "" && request.headers.get("authorization") === `Bearer ${config.operatorToken}`;
    if (pathname.startsWith("/v1/teams/") || pathname === "/v1/whoami" || pathname === "/mcp") {
      const key = parseKey(requestKey(request).token);
      if (key) return teamOf(key.team).fetch(request);
      // The operator's request on a team's path: to that team's object.
      const team = /^\/v1\/teams\/([^/]+)(?:\/|$)/.exec(pathname)?.[1];
      if (operator && team !== undefined && TEAM_ID.test(team)) return teamOf(team).fetch(request);
    } else if (pathname === "/v1/teams" && request.method === "POST" && operator) {
      // The team is named in the body: read it (capped) and hand it on.
      let bytes;
      try {
        bytes = await readCapped(request, config);
      } catch (error) {
        if (error instanceof HubProblem) return withCors(toResponse(error), request);
        throw error;
      }
      let team;
      try {
        team = JSON.parse(new TextDecoder().decode(bytes))?.team;
      } catch {
        team = undefined;
      }
      const forwarded = new Request(request, { body: bytes });
      if (typeof team === "string" && TEAM_ID.test(team)) return teamOf(team).fetch(forwarded);
      request = forwarded;
    }
    // The edge's own counts (health, unknown routes, refusals) and every team's.
    const metrics = (edgeMetrics ??= new Metrics());
    edge ??= createHub(config, { team: () => null, subscribe: () => new Response(null, { status: 500 }), metrics, collect: async () => [metrics.snapshot(), ...(await teamSnapshots(env))] });
    return edge.fetch(request, clientOf(request));
  },
};
