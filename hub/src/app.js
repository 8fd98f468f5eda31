// The hub's HTTP application: web-standard Request in, Response out, the
// same on Workers (inside each team's Durable Object) and on Deno. The
// runtime supplies where a team's data lives and how events reach
// subscribers; everything else (keys, roles, isolation, limits, saves,
// audit, problems) is here. The contract is docs/HUB.md.
import { Hono } from "hono";
import { MemoryStore, injectionBlock, validate } from "memdoc";

import { appendAudit, readAudit } from "./audit.js";
import { drain, readDocument, readJson } from "./body.js";
import { MEMBER, MEMORY_ID, ROLES } from "./ids.js";
import { TEAM_ID, hashKey, newKey, parseKey, requestKey, sameDigest } from "./keys.js";
import { HubProblem, problemResponse, toResponse } from "./problem.js";
import { lifecycleRoutes, recallFor } from "./lifecycle.js";
import { RateLimiter } from "./rate-limit.js";
import { BoundedMap } from "./bounded-map.js";
import { UnknownKeys } from "./unknown-keys.js";
import { mountMcp } from "./mcp/route.js";
import { mountWhoami } from "./whoami.js";
import { mountDirectory, recordMemory } from "./directory.js";
import { activeAdminKeys, expiresAtOf, keyRefusal, mountMembers } from "./members.js";
import { Metrics, mountMetrics } from "./metrics.js";
import { mountRequestLog } from "./request-log.js";
import { count, mountStats } from "./stats.js";
import { indexAfterSave } from "./embedding.js";
import { mountTeamRecall } from "./team-recall.js";
import { deletedMarker, deletedProblem, exclusive, mountDeletion } from "./deletion.js";
import { mountBackup } from "./backup.js";
import { mountTasks } from "./tasks.js";
const ETAG = /^"(0|[1-9][0-9]{0,14})"$/;
const LAST_USED_EVERY_MS = 60_000;
/** The largest ?limit of the audit: the largest MEMDOC_HUB_AUDIT_MAX. */
const AUDIT_LIMIT_MAX = 100_000;

/** Key revocations of a team, one at a time (the last admin key must stay). */
const revoking = new WeakMap();
function oneAtATime(storage, task) {
  const next = (revoking.get(storage) ?? Promise.resolve()).then(task);
  revoking.set(storage, next.catch(() => {}));
  return next;
}

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, PUT, POST, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, if-match, if-none-match, x-request-id",
  "access-control-expose-headers": "etag, retry-after, location, x-request-id",
  "access-control-max-age": "600",
};

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
 * @property {(team: string) => import("./team-storage.js").TeamStorage | null} team
 *   the storage of a team served here, or null
 * @property {(s: Subscription) => Response | Promise<Response>} subscribe
 *   accept a WebSocket upgrade for a memory's events
 * @property {(s: { storage: any, store: MemoryStore, ref: object }) => void | Promise<void>} [changed]
 *   called after every save (or sweep) that wrote a revision
 * @property {(s: { team: string, storage: any, policies: object[] }) => void | Promise<void>} [policiesChanged]
 *   called after an admin set the team's lifecycle policies (to schedule sweeps)
 * @property {Metrics} [metrics] where this application counts (a new one when absent)
 * @property {() => Promise<object[]>} [collect] the metrics snapshots `GET /metrics` adds up
 *   (default: this application's)
 * @property {() => number} [subscribers] the open event subscriptions here
 * @property {(line: string) => void} [log] where the request log lines go (default: console.log)
 * @property {(s: { team: string, storage: any }) => void | Promise<void>} [scheduleSweep]
 *   called when the team has something for the scheduled sweep: a deleted memory to purge, a task memory to expire
 * @property {(s: { team: string, storage: any }) => void | Promise<void>} [teamDeleted]
 *   called after the operator deleted a team (to drop its schedule)
 * @property {() => Promise<import("memdoc").Embedder>} [embedder]
 *   the embedder of recall by meaning (embedding.js), loaded once; absent: recall by words
 * @property {(work: Promise<unknown>) => void} [background]
 *   keep work going after the response (a Worker's waitUntil)
 */

/**
 * @param {HubConfig} config
 * @param {HubRuntime} runtime
 */
export function createHub(config, runtime) {
  const limiter = new RateLimiter(config.ratePerMinute);
  const unknownKeys = new UnknownKeys(config);
  const lastUsed = new BoundedMap(10_000);
  const stores = new WeakMap();
  const storeOf = (storage) => {
    let store = stores.get(storage);
    if (!store) {
      store = new MemoryStore(storage.host, { historyDepth: config.historyDepth });
      stores.set(storage, store);
    }
    return store;
  };

  const app = new Hono();
  const metrics = runtime.metrics ?? new Metrics();
  mountRequestLog(app, { metrics, log: runtime.log ?? ((line) => console.log(line)) });
  app.use("*", async (c, next) => {
    c.set("embedder", runtime.embedder ?? null);
    await next();
  });

  app.use("*", async (c, next) => {
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
    await next();
    // An error answered before the body was read: the body is read and
    // dropped (bounded), or the connection closed, so that the client's next
    // request on it is not met by a reset.
    const { status } = c.res;
    if (status === 408 || status === 413 || (status >= 400 && !(await drain(c.req.raw, config)))) c.res.headers.set("connection", "close");
    // A WebSocket upgrade's response cannot take more headers in workerd.
    if (c.res.status !== 101) for (const [k, v] of Object.entries(CORS_HEADERS)) c.res.headers.set(k, v);
  });

  app.onError((error) => {
    if (error instanceof HubProblem) return toResponse(error);
    const code = typeof error?.code === "string" ? error.code : "internal/error";
    if (code === "store/host-failed") return problemResponse(503, code, "The hub's storage failed; nothing was changed. Try again.");
    return problemResponse(500, code.startsWith("internal/") ? code : "internal/error", "The hub failed to answer this request.");
  });

  app.notFound(() => problemResponse(404, "http/not-found", "There is no such route."));

  // ---- authentication, isolation, audit ---------------------------------

  /**
   * The caller of a team route: the key's team storage, record and role.
   * Refusals after the key is known are audited in the key's team.
   */
  async function caller(c, action, target) {
    const { token, present } = requestKey(c.req.raw);
    if (!present) throw new HubProblem(401, "auth/missing-key", "Send Authorization: Bearer <key>.", { headers: { "www-authenticate": "Bearer" } });
    const parsed = parseKey(token);
    const storage = parsed ? runtime.team(parsed.team) : null;
    const invalid = () => new HubProblem(401, "auth/invalid-key", "The key is unknown or revoked.", { headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
    if (!parsed || !storage) throw invalid();
    const record = await storage.get(["key", parsed.id]);
    if (!record || !sameDigest(record.hash, await hashKey(token))) {
      // A revoked key is still known by its id: refused as its member.
      const known = record ?? (await storage.get(["revoked", parsed.id]));
      if (known === undefined) {
        const client = c.env?.client ?? "unknown";
        const wait = unknownKeys.take(parsed.team, client);
        if (wait > 0) {
          await unknownKeys.flush(storage, parsed.team);
          throw limited(wait, "refused requests with unknown keys");
        }
        await unknownKeys.record(storage, parsed.team, client);
        throw invalid();
      }
      const wait = unknownKeys.limiter.take(`refused:${parsed.team}.${parsed.id}`);
      if (wait > 0) throw limited(wait, "refused requests with this key");
      await appendAudit(storage, { member: known.member, keyId: parsed.id, action, target, revision: null, status: 401 }, config.auditMax);
      throw invalid();
    }
    c.set("caller", { team: parsed.team, keyId: parsed.id, member: record.member, storage });
    const refusal = await keyRefusal(storage, record);
    if (refusal) {
      const wait = unknownKeys.limiter.take(`refused:${parsed.team}.${parsed.id}`);
      if (wait > 0) throw limited(wait, "refused requests with this key");
      await appendAudit(storage, { member: record.member, keyId: parsed.id, action, target, revision: null, status: 401, refused: refusal.code }, config.auditMax);
      throw new HubProblem(401, refusal.code, refusal.detail, { headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
    }
    const wait = limiter.take(`${parsed.team}.${parsed.id}`);
    if (wait > 0) throw limited(wait);
    // Kept apart from the key record, so that this write can never bring
    // back a key revoked meanwhile.
    const now = Date.now();
    const used = lastUsed.get(`${parsed.team}.${parsed.id}`);
    if (used === undefined || now - used > LAST_USED_EVERY_MS) {
      lastUsed.set(`${parsed.team}.${parsed.id}`, now);
      await storage.put(["used", parsed.id], new Date(now).toISOString());
    }
    const who = { team: parsed.team, storage, keyId: parsed.id, member: record.member, role: record.role };
    c.set("caller", who);
    who.audit = (entry) => appendAudit(storage, { member: who.member, keyId: who.keyId, action, target, revision: null, ...entry }, config.auditMax);
    who.refuse = async (problem, more = {}) => {
      await who.audit({ status: problem.status, ...more });
      return problem;
    };
    return who;
  }

  function limited(wait, what = "requests for this key") {
    return new HubProblem(429, "rate/limited", `Too many ${what}; retry in ${wait} s.`, { headers: { "retry-after": String(wait) } });
  }

  const notFound = () => new HubProblem(404, "memory/not-found", "There is no such memory.");

  /** Authenticate, then check the team (404) and the role (403). */
  async function teamCaller(c, action, need, target) {
    const team = c.req.param("team");
    const who = await caller(c, action, target ?? `team/${team}`);
    if (team !== who.team) throw await who.refuse(new HubProblem(404, "team/not-found", "There is no such team."), { target: `teams/${team}` });
    if (ROLES.indexOf(who.role) < ROLES.indexOf(need)) {
      throw await who.refuse(new HubProblem(403, "auth/forbidden", `This needs the ${need} role; the key is ${who.role}.`));
    }
    return who;
  }

  /**
   * The caller of a memory route, and the memory: 404 for anything it may
   * not see, and for a deleted memory (409 for a save) unless `o.deleted`.
   */
  async function memoryCaller(c, action, need, o = {}) {
    const { scope, id } = c.req.param();
    const target = `${scope}/${id}`;
    const team = c.req.param("team");
    const who = await caller(c, action, target);
    const visible =
      team === who.team && ((scope === "team" && MEMORY_ID.test(id)) || (scope === "user" && id === who.member));
    // Another team's path is audited with that team's name.
    if (!visible) throw await who.refuse(notFound(), team === who.team ? {} : { target: `teams/${team}/${target}` });
    if (ROLES.indexOf(who.role) < ROLES.indexOf(need)) {
      throw await who.refuse(new HubProblem(403, "auth/forbidden", `This needs the ${need} role; the key is ${who.role}.`));
    }
    const ref = { scope, id };
    if (!o.deleted && (await deletedMarker(who.storage, ref)) !== undefined) throw await who.refuse(deletedProblem(action));
    return { who, ref, store: storeOf(who.storage) };
  }

  /** A write of a memory, one at a time with its delete, restore and purge (deletion.js). */
  function writing(who, ref, action, task) {
    return exclusive(who.storage, ref, async () => {
      if ((await deletedMarker(who.storage, ref)) !== undefined) throw deletedProblem(action);
      return task();
    });
  }

  function ifMatch(c) {
    const header = c.req.header("if-match");
    if (header === undefined) throw new HubProblem(428, "http/precondition-required", 'Send If-Match: "<revision>" (the revision you edited; "0" creates the memory).');
    const m = ETAG.exec(header.trim());
    if (!m) throw new HubProblem(400, "http/invalid-if-match", 'If-Match must be one revision tag, like "12".');
    return Number(m[1]);
  }

  const etag = (revision) => `"${revision}"`;

  function flag(c, name) {
    const value = c.req.query(name);
    if (value === undefined || value === "false") return false;
    if (value === "true") return true;
    throw new HubProblem(400, "request/invalid-query", `?${name} must be true or false.`);
  }

  // ---- routes -------------------------------------------------------------

  const M = "/v1/teams/:team/memories/:scope/:id";
  const allow = (path, methods) =>
    app.all(path, () => problemResponse(405, "http/method-not-allowed", `Use ${methods}.`, { headers: { allow: methods } }));

  app.get("/healthz", (c) => c.json({ ok: true }));
  allow("/healthz", "GET");

  /** Whether the request carries the operator token (compared in constant time). */
  async function isOperator(c) {
    const auth = c.req.header("authorization");
    return auth !== undefined && config.operatorToken !== "" && sameDigest(await hashKey(auth), await hashKey(`Bearer ${config.operatorToken}`));
  }

  function operatorRate() {
    const wait = limiter.take("operator");
    if (wait > 0) throw limited(wait, "operator requests");
  }

  /** A request only the operator may make: 401 without the operator token. */
  async function requireOperator(c) {
    if (c.req.header("authorization") === undefined) throw new HubProblem(401, "auth/missing-key", "Send Authorization: Bearer <operator token>.");
    if (!(await isOperator(c))) throw new HubProblem(401, "auth/invalid-key", "That is not the operator token.");
    operatorRate();
  }

  app.post("/v1/teams", async (c) => {
    await requireOperator(c);
    const body = await readJson(c.req.raw, config);
    if (typeof body.team !== "string" || !TEAM_ID.test(body.team)) {
      throw new HubProblem(400, "request/invalid-team", "`team` must be 1-64 of a-z, 0-9 and -, starting with a letter or digit.");
    }
    const storage = runtime.team(body.team);
    if (!storage) throw new HubProblem(503, "team/unavailable", "This server does not hold that team.");
    const admin = body.admin === undefined ? "admin" : body.admin;
    if (typeof admin !== "string" || !MEMBER.test(admin)) throw new HubProblem(400, "request/invalid-member", "`admin` must be a member id: 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit.");
    const createdAt = new Date().toISOString();
    if (!(await storage.create(["team"], { team: body.team, createdAt }))) {
      throw new HubProblem(409, "team/exists", "That team exists.");
    }
    const key = await addKey(storage, body.team, { member: admin, role: "admin", label: "first admin" });
    await appendAudit(storage, { member: null, keyId: null, action: "team.create", target: `team/${body.team}`, revision: null, status: 201 }, config.auditMax);
    return c.json({ team: body.team, key: key.key, keyId: key.id, member: admin }, 201, { location: `/v1/teams/${body.team}` });
  });
  allow("/v1/teams", "POST");

  async function addKey(storage, team, { member, role, label, expiresAt = null }) {
    const { id, secret } = newKey(team);
    const record = { id, member, role, label, createdAt: new Date().toISOString(), lastUsedAt: null, expiresAt, hash: await hashKey(secret) };
    await storage.put(["key", id], record);
    return { ...publicKey(record), key: secret };
  }

  function publicKey(r) {
    return { id: r.id, member: r.member, role: r.role, label: r.label, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, expiresAt: r.expiresAt ?? null };
  }

  /** A key request's `{member, role, label}`, or a 400 problem. */
  function keyRequest(body) {
    if (typeof body.member !== "string" || !MEMBER.test(body.member)) {
      throw new HubProblem(400, "request/invalid-member", '`member` must be 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit.');
    }
    if (!ROLES.includes(body.role)) throw new HubProblem(400, "request/invalid-body", "`role` must be reader, writer or admin.");
    if (body.label !== undefined && body.label !== null && (typeof body.label !== "string" || body.label.length > 200)) {
      throw new HubProblem(400, "request/invalid-body", "`label` must be a string of at most 200 characters.");
    }
    return { member: body.member, role: body.role, label: body.label ?? null, expiresAt: expiresAtOf(body.expiresAt) };
  }

  app.post("/v1/teams/:team/keys", async (c) => {
    if (await isOperator(c)) return operatorKey(c);
    const who = await teamCaller(c, "key.create", "admin");
    let request;
    try {
      request = keyRequest(await readJson(c.req.raw, config));
    } catch (error) {
      throw error instanceof HubProblem ? await who.refuse(error) : error;
    }
    const key = await addKey(who.storage, who.team, request);
    await who.audit({ status: 201, target: `key/${key.id}` });
    return c.json(key, 201);
  });

  /** The operator's way back into a team: a key (an admin's, say) for an existing team. */
  async function operatorKey(c) {
    operatorRate();
    const team = c.req.param("team");
    const storage = TEAM_ID.test(team) ? runtime.team(team) : null;
    if (!storage || (await storage.get(["team"])) === undefined) throw new HubProblem(404, "team/not-found", "There is no such team.");
    const key = await addKey(storage, team, keyRequest(await readJson(c.req.raw, config)));
    await appendAudit(storage, { member: null, keyId: null, action: "key.create", target: `key/${key.id}`, revision: null, status: 201, by: "operator" }, config.auditMax);
    return c.json(key, 201);
  }
  app.get("/v1/teams/:team/keys", async (c) => {
    const who = await teamCaller(c, "key.list", "admin");
    const used = new Map((await who.storage.list(["used"])).map((e) => [e.key[1], e.value]));
    const keys = (await who.storage.list(["key"])).map((e) => publicKey({ ...e.value, lastUsedAt: used.get(e.value.id) ?? null }));
    return c.json({ keys });
  });
  allow("/v1/teams/:team/keys", "GET, POST");

  app.delete("/v1/teams/:team/keys/:keyId", async (c) => {
    const keyId = c.req.param("keyId");
    const who = await teamCaller(c, "key.revoke", "admin", `key/${keyId}`);
    await oneAtATime(who.storage, async () => {
      const record = /^[a-f0-9]{16}$/.test(keyId) ? await who.storage.get(["key", keyId]) : undefined;
      if (record === undefined) throw await who.refuse(new HubProblem(404, "key/not-found", "There is no such key."));
      if (record.role === "admin" && (await activeAdminKeys(who.storage, { keyId })).length === 0) {
        throw await who.refuse(new HubProblem(409, "key/last-admin", "This is the team's last admin key: create another admin key first. (The operator can also create one.)"));
      }
      // The id stays known, so that a revoked key's use is audited as its member's.
      await who.storage.put(["revoked", keyId], { member: record.member, role: record.role, revokedAt: new Date().toISOString() });
      await who.storage.deleteMany([["key", keyId], ["used", keyId]]);
    });
    await who.audit({ status: 204 });
    return c.body(null, 204);
  });
  allow("/v1/teams/:team/keys/:keyId", "DELETE");

  app.get("/v1/teams/:team/audit", async (c) => {
    const who = await teamCaller(c, "audit", "admin");
    const raw = c.req.query("limit");
    const limit = raw === undefined ? 100 : /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(limit >= 1 && limit <= AUDIT_LIMIT_MAX)) {
      throw new HubProblem(400, "request/invalid-query", `?limit must be a whole number from 1 to ${AUDIT_LIMIT_MAX}.`);
    }
    // Never more than the log keeps.
    return c.json({ entries: await readAudit(who.storage, Math.min(limit, config.auditMax)) });
  });
  allow("/v1/teams/:team/audit", "GET");

  // Before the routes of {m}: the scope `task` is served there.
  mountTasks(app, { config, runtime, teamCaller, ifMatch, flag, saved });

  app.get(M, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "read", "reader");
    const loaded = await store.load(ref);
    const tag = etag(loaded.revision);
    const fresh = c.req.header("if-none-match")?.split(",").some((t) => t.trim() === tag || t.trim() === `W/${tag}`);
    await who.audit({ status: fresh ? 304 : 200, revision: loaded.revision });
    if (fresh) return c.body(null, 304, { etag: tag });
    return c.json(loaded, 200, { etag: tag });
  });

  app.put(M, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "save", "writer");
    try {
      const base = ifMatch(c);
      const merging = c.req.query("onConflict") === "merge";
      if (!merging && c.req.query("onConflict") !== undefined && c.req.query("onConflict") !== "reject") {
        throw new HubProblem(400, "request/invalid-query", "?onConflict must be merge or reject.");
      }
      const allowErase = flag(c, "allowErase");
      const content = await readDocument(c.req.raw, config);
      const options = { baseRevision: base, actor: who.member, allowErase, onConflict: merging ? "merge" : "reject" };
      // The store merges a stale edit, and merges again when a clean merge
      // loses the race to another save (MERGE_ATTEMPTS, docs/API.md).
      const outcome = await writing(who, ref, "save", () => store.save(ref, content, options));
      return await saved(c, who, ref, store, outcome, base, merging);
    } catch (error) {
      if (error instanceof HubProblem && error.status !== 429) await who.audit({ status: error.status });
      throw error;
    }
  });

  async function saved(c, who, ref, store, outcome, base, merging) {
    const body = { status: outcome.status, revision: outcome.revision, content: outcome.content, usage: outcome.usage, diagnostics: outcome.diagnostics, dropped: outcome.dropped, notice: outcome.notice };
    // A merged save is one written over revisions saved since its base.
    const mergedOver = outcome.status === "saved" && outcome.changed && base > 0 && outcome.revision > base + 1;
    metrics.add("memdoc_saves_total", { outcome: mergedOver ? "merged" : outcome.status });
    if (outcome.status !== "rejected") await count(who.storage, { writes: outcome.changed ? 1 : 0, conflicts: outcome.status === "conflict" ? 1 : 0, merges: mergedOver ? 1 : 0 });
    if (outcome.status === "saved" || outcome.status === "no_op") {
      await who.audit({ status: 200, revision: outcome.revision });
      if (outcome.changed) {
        await recordMemory(who.storage, ref);
        await runtime.changed?.({ storage: who.storage, store, ref });
        // The new items' vectors, after the response: a save never waits on the embedder.
        indexAfterSave({ embedder: runtime.embedder, background: runtime.background, storage: who.storage, store, ref, log: (line) => console.error(line) });
      }
      return c.json(body, 200, { etag: etag(outcome.revision) });
    }
    if (outcome.status === "rejected") {
      throw new HubProblem(422, "save/rejected", outcome.notice ?? "The save was rejected; see diagnostics.", { extra: { diagnostics: outcome.diagnostics, usage: outcome.usage } });
    }
    // A conflict: the memory moved on since `base`.
    const headers = { etag: etag(outcome.revision) };
    if (!merging) {
      throw new HubProblem(412, "http/precondition-failed", `The memory is at revision ${outcome.revision}, not ${base}; re-read it and save again (or ?onConflict=merge).`, { headers, extra: { currentRevision: outcome.revision } });
    }
    // The store's own merge: ours is what it holds now, theirs this edit.
    const { conflicts, merged } = outcome;
    throw new HubProblem(409, "store/conflict", outcome.notice ?? "The changes conflict with what was saved since; nothing was written.", { headers, extra: { currentRevision: outcome.revision, content: outcome.content, usage: outcome.usage, conflicts, merged } });
  }

  app.post(`${M}/validate`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "validate", "reader");
    const content = await readDocument(c.req.raw, config);
    const loaded = await store.load(ref);
    return c.json(validate(content, { scope: ref.scope, previous: loaded.revision === 0 ? null : loaded.content }), 200, { etag: etag(loaded.revision) });
  });
  allow(`${M}/validate`, "POST");

  app.get(`${M}/history`, async (c) => {
    const { ref, store } = await memoryCaller(c, "history", "reader");
    return c.json({ entries: await store.history(ref) });
  });
  allow(`${M}/history`, "GET");

  app.get(`${M}/revisions/:n`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "revision", "reader");
    const raw = c.req.param("n");
    const n = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : null;
    const content = n === null ? null : await store.revision(ref, n);
    if (content === null) throw await who.refuse(new HubProblem(404, "revision/not-found", "That revision is not kept (or never existed)."));
    return c.json({ revision: n, content }, 200, { etag: etag(n) });
  });
  allow(`${M}/revisions/:n`, "GET");

  app.post(`${M}/revert`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "revert", "writer");
    try {
      const base = ifMatch(c);
      const body = await readJson(c.req.raw, config);
      if (!Number.isInteger(body.revision) || body.revision < 1) throw new HubProblem(400, "request/invalid-body", "`revision` must be a whole number >= 1.");
      let outcome;
      try {
        outcome = await writing(who, ref, "revert", () => store.revert(ref, body.revision, { baseRevision: base, actor: who.member, allowErase: flag(c, "allowErase") }));
      } catch (error) {
        if (error?.code === "store/revision-unavailable" || error?.code === "store/invalid-revision") throw new HubProblem(404, "revision/not-found", "That revision is not kept (or never existed).");
        throw error;
      }
      return await saved(c, who, ref, store, outcome, base, false);
    } catch (error) {
      if (error instanceof HubProblem && error.status !== 429) await who.audit({ status: error.status });
      throw error;
    }
  });
  allow(`${M}/revert`, "POST");

  app.get(`${M}/prompt`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "prompt", "reader");
    const loaded = await store.load(ref);
    const userName = c.req.query("userName");
    if (userName !== undefined && userName.length > 200) throw new HubProblem(400, "request/invalid-query", "?userName is at most 200 characters.");
    // With ?q= or ?budget=, the recalled part of the memory.
    const recalled = await recallFor(c, who, ref, loaded.content, { optional: true });
    await who.audit({ status: 200, revision: loaded.revision });
    return c.body(injectionBlock(recalled?.content ?? loaded.content, { scope: ref.scope, userName: userName ?? null, recalled: recalled?.totals ?? null }), 200, {
      "content-type": "text/plain; charset=utf-8",
      etag: etag(loaded.revision),
    });
  });
  allow(`${M}/prompt`, "GET");

  app.get(`${M}/events`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "events", "reader");
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new HubProblem(426, "http/upgrade-required", "This is a WebSocket: send Upgrade: websocket.", { headers: { upgrade: "websocket" } });
    }
    const loaded = await store.load(ref);
    await who.audit({ status: 101, revision: loaded.revision });
    // The reply names one subprotocol the client offered, never another
    // (RFC 6455; browsers and Node fail a handshake that offered some and
    // got none): `memdoc`, or else the `bearer.<key>` that was offered alone.
    const offered = (c.req.header("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
    const protocol = offered.includes("memdoc") ? "memdoc" : (offered.find((p) => p.startsWith("bearer.")) ?? null);
    return runtime.subscribe({ request: c.req.raw, storage: who.storage, store, ref, after: loaded.revision, protocol });
  });
  allow(`${M}/events`, "GET");

  lifecycleRoutes(app, { M, config, runtime: { ...runtime, metrics }, teamCaller, memoryCaller, storeOf, allow });
  mountDeletion(app, { M, config, runtime, teamCaller, memoryCaller, requireOperator, ifMatch, flag, allow });
  mountBackup(app, { config, runtime, teamCaller, requireOperator, allow });

  allow(M, "GET, PUT, DELETE");

  // Key introspection, the memories a key can open, and the MCP endpoint.
  mountWhoami(app, caller);
  mountDirectory(app, teamCaller);
  mountMembers(app, { config, teamCaller, addKey, oneAtATime, allow });
  mountStats(app, { teamCaller, allow, embedder: runtime.embedder ?? null, storeOf });
  mountTeamRecall(app, { teamCaller, storeOf, allow });
  mountMetrics(app, { isOperator, collect: runtime.collect ?? (async () => [metrics.snapshot(runtime.subscribers?.() ?? 0)]), allow });
  mountMcp(app, config);

  return app;
}

export { hubConfig } from "./settings.js";
