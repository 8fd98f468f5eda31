// The hub's HTTP application: web-standard Request in, Response out, the
// same on Workers (inside each team's Durable Object) and on Deno. The
// runtime supplies where a team's data lives and how events reach
// subscribers; everything else (keys, roles, isolation, limits, saves,
// audit, problems) is here. The contract is docs/HUB.md.
//
// Every request passes the request log, the hub's context (context.js),
// CORS and the drain of unread bodies; then one route of an area (routes/),
// whose own middleware authenticates the key and checks what it may reach
// (access.js, operator.js) before its handler runs. Errors are thrown as
// HubProblems and answered once, by `onError`.
import { Hono } from "hono";

import { drainAfterError } from "./body.js";
import { hubOf } from "./context.js";
import { cors } from "./cors.js";
import { mcp } from "./mcp/route.js";
import { errorResponse, noRoute } from "./problem.js";
import { mountRequestLog } from "./request-log.js";
import { audit } from "./routes/audit.js";
import { backup } from "./routes/backup.js";
import { deletion } from "./routes/deletion.js";
import { directory } from "./routes/directory.js";
import { events } from "./routes/events.js";
import { health } from "./routes/health.js";
import { home } from "./routes/home.js";
import { keys } from "./routes/keys.js";
import { lifecycle } from "./routes/lifecycle.js";
import { members } from "./routes/members.js";
import { memories } from "./routes/memories.js";
import { metrics } from "./routes/metrics.js";
import { recalls } from "./routes/recall.js";
import { stats } from "./routes/stats.js";
import { tasks } from "./routes/tasks.js";
import { teams } from "./routes/teams.js";
import { whoami } from "./routes/whoami.js";

export { CORS_HEADERS } from "./cors.js";
export { hubConfig } from "./settings.js";

/** The routes of one team, under /v1/teams/:team. */
const TEAM = "/v1/teams/:team";

/**
 * @typedef {object} HubConfig
 * @property {string} operatorToken
 * @property {number} bodyCap bytes
 * @property {number} bodyTimeoutMs for the whole body
 * @property {number} ratePerMinute per key
 * @property {number} auditMax entries kept per team
 * @property {number} historyDepth revisions kept per memory
 * @property {number} taskTtlSeconds the lifetime of a task memory without ?ttl
 * @property {number} importCap bytes of an import (POST /v1/teams/{team}/import)
 * @property {number} deletedRetentionDays days a deleted memory is kept before the sweep purges it
 *
 * @typedef {object} HubRuntime
 * @property {(team: string, o?: { create?: boolean }) => import("./data/storage.js").TeamStorage | null | Promise<import("./data/storage.js").TeamStorage | null>} team
 *   the storage of a team served here, or null; on a server of many teams
 *   (Deno) null too for a team that does not exist, unless `create`
 * @property {(s: Subscription) => Response | Promise<Response>} subscribe
 *   accept a WebSocket upgrade for a memory's events
 * @property {(s: { storage: any, store: MemoryStore, ref: object }) => void | Promise<void>} [changed]
 *   called after every save (or sweep) that wrote a revision
 * @property {(s: { team: string, storage: any, policies: object[] }) => void | Promise<void>} [policiesChanged]
 *   called after an admin set the team's lifecycle policies (to schedule sweeps)
 * @property {import("./metrics.js").Metrics} [metrics] where this application counts (a new one when absent)
 * @property {() => Promise<object[]>} [collect] the metrics snapshots `GET /metrics` adds up
 *   (default: this application's)
 * @property {() => number} [subscribers] the open event subscriptions here
 * @property {(s: { storage: any, keyId: string }) => { key: number, team: number }} [openSockets]
 *   the event sockets open now of the key and of its team (events.js caps them)
 * @property {(s: { storage: any, keyId?: string, member?: string, close: { code: number, reason: string } }) => void} [closeSockets]
 *   close the team's event sockets of a key, of a member, or (neither) all of them
 * @property {(line: string) => void} [log] where the request log lines go (default: console.log)
 * @property {(s: { team: string, storage: any }) => void | Promise<void>} [scheduleSweep]
 *   called when the team has something for the scheduled sweep: a deleted memory to purge, a task memory to expire
 * @property {(s: { team: string, storage: any }) => void | Promise<void>} [teamDeleted]
 *   called after the operator deleted a team (to drop its schedule)
 * @property {() => Promise<import("memdoc").Embedder>} [embedder]
 *   the embedder of recall by meaning (embedding.js), loaded once; absent: recall by words
 * @property {(work: Promise<unknown>) => void} [background]
 *   keep work going after the response (a Worker's waitUntil)
 * @property {() => Promise<void>} [turn] give the thread to other requests
 *   between the parts of long work (turns.js; default: one timer turn)
 */

/**
 * @param {HubConfig} config
 * @param {HubRuntime} runtime
 */
export function createHub(config, runtime) {
  /** @type {Hono<import("./context.js").Env>} */
  const app = new Hono();
  const hub = hubOf(config, runtime);
  mountRequestLog(app, { metrics: hub.metrics, log: runtime.log ?? ((line) => console.log(line)) });
  app.use("*", async (c, next) => {
    c.set("hub", hub);
    await next();
  });
  app.use("*", cors);
  app.use("*", drainAfterError);
  app.onError(errorResponse);
  app.notFound(noRoute);

  app.route("/", home);
  app.route("/healthz", health);
  app.route("/v1/teams", teams);
  app.route(TEAM, keys);
  app.route(TEAM, audit);
  // Before the routes of {m} (deletion, memories, events, recall): a task
  // memory's path is one of {m} too, whose routes answer 404 for it.
  app.route(TEAM, tasks);
  // Before memories.js, whose last route answers 405 to {m}'s other methods.
  app.route(TEAM, deletion);
  app.route(TEAM, memories);
  app.route(TEAM, events);
  app.route(TEAM, recalls);
  app.route(TEAM, lifecycle);
  app.route(TEAM, backup);
  app.route("/v1/whoami", whoami);
  app.route(TEAM, directory);
  app.route(TEAM, members);
  app.route(TEAM, stats);
  app.route("/metrics", metrics);
  app.route("/mcp", mcp);
  return app;
}
