// Members and the life of their keys (docs/HUB.md, "Members and keys"): a
// member is disabled or made active again in one step (every key of a
// disabled member is refused at once; their user memory is kept); a key
// may carry an expiry; a key is rotated into a new one for the same member
// and role while the old one works until a grace period ends.
//
// A team is never locked out by an admin: disabling a member and revoking
// a key are refused (409) when they would leave no active admin key (one
// that has not expired, of an active member). Time alone can still end
// every admin key (each had an expiry); the operator's key request is the
// way back in then.
import { MEMBER } from "./ids.js";
import { readJson } from "./body.js";
import { HubProblem } from "./problem.js";

/** RFC 3339 date-time, with a time zone. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
/** The longest grace of a rotation: 30 days. */
export const GRACE_MAX_SECONDS = 30 * 86_400;
const KEY_ID = /^[a-f0-9]{16}$/;

const memberKey = (member) => ["member", member];

/** A member's status record, `active` when none was set. */
async function statusOf(storage, member) {
  return (await storage.get(memberKey(member)))?.status ?? "active";
}

const expired = (record, now) => record.expiresAt != null && Date.parse(record.expiresAt) <= now;

/**
 * Why a known key with the right secret is refused now, or null.
 * @returns {Promise<{ code: string, detail: string } | null>}
 */
export async function keyRefusal(storage, record, now = Date.now()) {
  if (expired(record, now)) return { code: "auth/key-expired", detail: `The key expired at ${record.expiresAt}.` };
  if ((await statusOf(storage, record.member)) === "disabled") return { code: "auth/member-disabled", detail: "The key's member is disabled." };
  return null;
}

/** A key request's `expiresAt`: null when absent, else an ISO instant in the future (400 otherwise). */
export function expiresAtOf(value, now = Date.now()) {
  if (value === undefined || value === null) return null;
  const at = typeof value === "string" && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) throw new HubProblem(400, "request/invalid-body", "`expiresAt` must be an RFC 3339 date-time with a time zone, like 2027-01-31T12:00:00Z.");
  if (at <= now) throw new HubProblem(400, "request/invalid-body", "`expiresAt` must be in the future.");
  return new Date(at).toISOString();
}

/**
 * The team's active admin keys (not expired, of an active member), leaving
 * out those of `member` and the key `keyId`.
 */
export async function activeAdminKeys(storage, { member = null, keyId = null } = {}) {
  const now = Date.now();
  const admins = (await storage.list(["key"])).map((e) => e.value).filter((r) => r.role === "admin" && r.member !== member && r.id !== keyId && !expired(r, now));
  const out = [];
  for (const r of admins) if ((await statusOf(storage, r.member)) === "active") out.push(r);
  return out;
}

/** Every member with a key or a status, with their key ids and last use. */
async function listMembers(storage) {
  const used = new Map((await storage.list(["used"])).map((e) => [e.key[1], e.value]));
  const members = new Map();
  const entry = (member) => {
    if (!members.has(member)) members.set(member, { member, status: "active", keys: [], lastUsedAt: null });
    return members.get(member);
  };
  for (const { value: r } of await storage.list(["key"])) {
    const m = entry(r.member);
    m.keys.push(r.id);
    const at = used.get(r.id) ?? null;
    if (at !== null && (m.lastUsedAt === null || at > m.lastUsedAt)) m.lastUsedAt = at;
  }
  for (const { key, value } of await storage.list(["member"])) entry(key[1]).status = value.status;
  return [...members.values()].sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
}

/**
 * The routes of this file, on the hub application.
 * @param {import("hono").Hono} app
 * @param {{ config: any, teamCaller: Function, addKey: Function, oneAtATime: Function, allow: Function }} hub
 */
export function mountMembers(app, { config, teamCaller, addKey, oneAtATime, allow }) {
  const body = async (c, who) => {
    try {
      return await readJson(c.req.raw, config);
    } catch (error) {
      throw error instanceof HubProblem ? await who.refuse(error) : error;
    }
  };

  app.get("/v1/teams/:team/members", async (c) => {
    const who = await teamCaller(c, "member.list", "admin");
    return c.json({ members: await listMembers(who.storage) });
  });
  allow("/v1/teams/:team/members", "GET");

  app.patch("/v1/teams/:team/members/:member", async (c) => {
    const member = c.req.param("member");
    const who = await teamCaller(c, "member.status", "admin", `member/${member}`);
    const request = await body(c, who);
    if (request.status !== "disabled" && request.status !== "active") {
      throw await who.refuse(new HubProblem(400, "request/invalid-body", '`status` must be "disabled" or "active".'));
    }
    const result = await oneAtATime(who.storage, async () => {
      const found = MEMBER.test(member) ? (await listMembers(who.storage)).find((m) => m.member === member) : undefined;
      if (found === undefined) throw await who.refuse(new HubProblem(404, "member/not-found", "There is no such member (a member is known by a key)."));
      if (request.status === "disabled" && (await activeAdminKeys(who.storage, { member })).length === 0) {
        throw await who.refuse(new HubProblem(409, "member/last-admin", "This member holds the team's last active admin key: create an admin key for another member first. (The operator can also create one.)"));
      }
      await who.storage.put(["member", member], { status: request.status, changedAt: new Date().toISOString(), changedBy: who.member });
      return { ...found, status: request.status };
    });
    await who.audit({ status: 200, state: request.status });
    return c.json(result);
  });
  allow("/v1/teams/:team/members/:member", "PATCH");

  app.post("/v1/teams/:team/keys/:keyId/rotate", async (c) => {
    const keyId = c.req.param("keyId");
    const who = await teamCaller(c, "key.rotate", "admin", `key/${keyId}`);
    const request = await body(c, who);
    const grace = request.graceSeconds;
    if (!Number.isInteger(grace) || grace < 0 || grace > GRACE_MAX_SECONDS) {
      throw await who.refuse(new HubProblem(400, "request/invalid-body", `\`graceSeconds\` must be a whole number from 0 to ${GRACE_MAX_SECONDS} (30 days).`));
    }
    const { key, end } = await oneAtATime(who.storage, async () => {
      const old = KEY_ID.test(keyId) ? await who.storage.get(["key", keyId]) : undefined;
      if (old === undefined) throw await who.refuse(new HubProblem(404, "key/not-found", "There is no such key."));
      const now = Date.now();
      const fresh = await addKey(who.storage, who.team, { member: old.member, role: old.role, label: old.label, expiresAt: old.expiresAt ?? null });
      // The old key ends with its grace (or its own expiry, when sooner).
      const end = Math.min(now + grace * 1000, old.expiresAt == null ? Infinity : Date.parse(old.expiresAt));
      await who.storage.put(["key", keyId], { ...old, expiresAt: new Date(end).toISOString(), rotatedTo: fresh.id });
      return { key: fresh, end: new Date(end).toISOString() };
    });
    await who.audit({ status: 201, rotatedTo: key.id });
    return c.json({ ...key, rotated: { id: keyId, expiresAt: end } }, 201);
  });
  allow("/v1/teams/:team/keys/:keyId/rotate", "POST");
}
