// Every route of the hub application names its access (docs/HUB.md,
// "Tenancy, keys, roles"): taken from the application's own route table, so
// that a route added without its access middleware fails here. Without a
// key every route but /healthz is refused 401 (a path's other methods may
// answer 405, which tells nothing of any team); with a valid key of another
// team every team route answers as if the team or memory did not exist,
// and the operator's routes refuse the key. The application runs in Node
// over an in-memory team storage; the runtimes' own tests are the others.
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryHost } from "memdoc/adapters/memory";

import { createHub } from "../src/app.js";

/** A TeamStorage (src/data/storage.js) in a Map. */
function memoryTeamStorage() {
  const entries = new Map();
  const text = (key) => key.join("\u0001");
  const inside = (prefix) => (k) => k === text(prefix) || k.startsWith(`${text(prefix)}\u0001`);
  return {
    get: async (key) => entries.get(text(key)),
    put: async (key, value) => void entries.set(text(key), value),
    delete: async (key) => void entries.delete(text(key)),
    deleteMany: async (keys) => keys.forEach((key) => entries.delete(text(key))),
    create: async (key, value) => !entries.has(text(key)) && Boolean(entries.set(text(key), value)),
    async list(prefix, o = {}) {
      let keys = [...entries.keys()].filter(inside(prefix)).sort();
      if (o.end) keys = keys.filter((k) => k < text(o.end));
      if (o.reverse) keys.reverse();
      return keys.slice(0, o.limit ?? keys.length).map((k) => ({ key: k.split("\u0001"), value: entries.get(k) }));
    },
    deleteAll: async () => entries.clear(),
    host: memoryHost(),
  };
}

const OPERATOR = "operator-token-of-the-access-test";
const OPERATOR_ROUTES = ["POST /v1/teams", "DELETE /v1/teams/:team", "POST /v1/teams/:team/import", "GET /metrics"];

async function start() {
  const teams = new Map();
  const hub = createHub(
    { operatorToken: OPERATOR, bodyCap: 100_000, bodyTimeoutMs: 5000, ratePerMinute: 100_000, auditMax: 1000, historyDepth: 5, taskTtlSeconds: 60, importCap: 100_000, deletedRetentionDays: 1 },
    {
      team: (team) => teams.get(team) ?? teams.set(team, memoryTeamStorage()).get(team),
      subscribe: () => new Response(null, { status: 500 }),
      log: () => {},
    },
  );
  const send = async (method, path, key, body) => {
    const headers = key ? { authorization: `Bearer ${key}` } : {};
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await hub.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = /^application\/(problem\+)?json/.test(response.headers.get("content-type") ?? "") && text ? JSON.parse(text) : {};
    return { status: response.status, code: json.code, json };
  };
  // Each route once (a route's middleware and handler are rows of the same route), 405 answers apart.
  const routes = [...new Set(hub.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))];
  return { send, routes };
}

/** The route's path for team alpha, a team memory `notes` and the member `ada`. */
const pathOf = (path) =>
  path.replace(":team", "alpha").replace(":scope", "team").replace(/:id|:member/, (p) => (p === ":id" ? "notes" : "ada")).replace(":keyId", "0123456789abcdef").replace(":n", "1");

test("the route table: without a key, every route but /healthz and the root page is refused 401", async () => {
  const { send, routes } = await start();
  assert.ok(routes.length > 30, `the route table has ${routes.length} routes`);
  for (const route of routes) {
    const [method, path] = route.split(" ");
    const { status, code } = await send(method, pathOf(path), null, method === "GET" || method === "DELETE" ? undefined : {});
    // /healthz and the root page (the hub's name, version and links) say nothing of any team.
    if (path === "/healthz" || path === "/") assert.equal(status, 200, route);
    else assert.deepEqual([status, code], [401, "auth/missing-key"], `should refuse ${route} without a key`);
  }
});

test("the route table: a key of another team finds nothing of team alpha, and the operator's routes refuse it", async () => {
  const { send, routes } = await start();
  for (const team of ["alpha", "beta"]) assert.equal((await send("POST", "/v1/teams", OPERATOR, { team, admin: "ada" })).status, 201);
  const beta = (await send("POST", "/v1/teams/beta/keys", OPERATOR, { member: "ada", role: "admin" })).json.key;
  const alpha = (await send("POST", "/v1/teams/alpha/keys", OPERATOR, { member: "ada", role: "admin" })).json.key;
  const saved = await send("PUT", "/v1/teams/alpha/memories/team/notes", alpha, { content: "# Notes\n\n## Facts\n- 2026-01-01: one\n" });
  assert.equal(saved.status, 428, "a save needs If-Match (the memory is made below)");
  const teamRoutes = routes.filter((route) => route.split(" ")[1].startsWith("/v1/teams/:team"));
  assert.ok(teamRoutes.length > 30, `${teamRoutes.length} team routes`);
  for (const route of teamRoutes) {
    const [method, path] = route.split(" ");
    const { status, code } = await send(method, pathOf(path), beta, method === "GET" || method === "DELETE" ? undefined : {});
    if (OPERATOR_ROUTES.includes(route)) assert.deepEqual([status, code], [401, "auth/invalid-key"], `${route} is the operator's`);
    else assert.ok(status === 404 && ["team/not-found", "memory/not-found"].includes(code), `should answer ${route} for another team's key as for nothing: ${status} ${code}`);
  }
  // The team's own admin reaches them (the operator's routes aside).
  for (const route of teamRoutes.filter((r) => !OPERATOR_ROUTES.includes(r) && r.startsWith("GET ") && !r.includes("/events") && !r.includes("/task/"))) {
    const { status, code } = await send("GET", pathOf(route.split(" ")[1]), alpha);
    assert.ok(status === 200 || code === "memory/not-found" || code === "revision/not-found", `${route} for alpha's admin: ${status} ${code}`);
  }
});
