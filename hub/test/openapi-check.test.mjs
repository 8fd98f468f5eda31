// The response checker the HTTP suite relies on must itself fail on what
// does not match hub/openapi.json.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { checkResponse } from "./openapi-check.mjs";

const spec = JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));
const M = "/v1/teams/{team}/memories/{scope}/{id}";
const usage = { chars: 1, utf8Bytes: 1, soft: 18000, hard: 25000, level: "ok" };
const loaded = { content: "x", revision: 1, usage, updatedAt: null, updatedBy: null };
const json = "application/json";

test("a matching answer passes", () => {
  assert.deepEqual(checkResponse(spec, M, "get", 200, json, loaded, JSON.stringify(loaded)), []);
  assert.deepEqual(checkResponse(spec, M, "get", 304, "", null, ""), []);
  const problem = { type: "t", title: "Not Found", status: 404, detail: "d", code: "memory/not-found" };
  assert.deepEqual(checkResponse(spec, M, "get", 404, "application/problem+json", problem, "{}"), []);
});

test("wrong types, missing fields, bad enums, undocumented statuses and media types fail", () => {
  const bad = (status, type, body) => checkResponse(spec, M, "get", status, type, body, JSON.stringify(body));
  assert.match(bad(200, json, { ...loaded, revision: "1" })[0], /revision: is string/);
  assert.match(bad(200, json, { ...loaded, revision: -1 })[0], /below 0/);
  const { usage: _, ...noUsage } = loaded;
  assert.match(bad(200, json, noUsage)[0], /missing usage/);
  assert.match(bad(200, json, { ...loaded, usage: { ...usage, level: "huge" } })[0], /not one of/);
  assert.match(bad(418, json, loaded)[0], /418 is not documented/);
  assert.match(bad(200, "text/html", loaded)[0], /text\/html is not documented/);
  assert.match(bad(404, "application/problem+json", { title: "x" })[0], /missing/);
  assert.match(checkResponse(spec, M, "patch", 200, json, {}, "{}")[0], /not documented/);
  const key = { id: "k", member: "m", role: "reader", label: null, createdAt: "t", lastUsedAt: null, expiresAt: null, hash: "secret" };
  assert.match(checkResponse(spec, "/v1/teams/{team}/keys", "get", 200, json, { keys: [key] }, "")[0], /unexpected property hash/);
});

test("openapi.json states the hub's own id rules, not copies that could drift", async () => {
  const { MEMBER, MEMORY_ID } = await import("../src/ids.js");
  const { TEAM_ID } = await import("../src/keys.js");
  assert.equal(spec.components.schemas.KeyRequest.properties.member.pattern, MEMBER.source);
  assert.equal(spec.components.schemas.TeamRequest.properties.admin.pattern, MEMBER.source);
  assert.equal(spec.components.schemas.TeamRequest.properties.team.pattern, TEAM_ID.source);
  const id = spec.paths[M].get.parameters.find((p) => p.name === "id").schema.pattern;
  // The path's id is a team memory id or a member id (a member id is one).
  assert.equal(id, MEMORY_ID.source);
  for (const member of ["alice", "a.b@c-d_e", "x".repeat(64)]) assert.ok(MEMBER.test(member) && MEMORY_ID.test(member), member);
  for (const bad of [".", "..", "a/b", "", ".a", "_x"]) assert.doesNotMatch(bad, MEMBER, bad);
});
