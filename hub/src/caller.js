// Authentication: who a request's key says the caller is. A missing key, a
// key no team knows, a wrong secret, a revoked or expired key and a
// disabled member's key are refused 401; refusals after the key is known
// are audited in the key's team as its member, and unknown keys are limited
// before anything is stored (unknown-keys.js). The team, member and role
// are the key's, whatever the request says.
import { appendAudit } from "./audit.js";
import { readKey } from "./data/key.js";
import { readRevoked } from "./data/revoked.js";
import { writeUsed } from "./data/used.js";
import { hashKey, parseKey, requestKey, sameDigest } from "./keys.js";
import { keyRefusal } from "./members.js";
import { HubProblem } from "./problem.js";
import { rateLimited } from "./rate-limit.js";
import { isWhole } from "./team-record.js";

/** A key's last use is written at most this often. */
const LAST_USED_EVERY_MS = 60_000;

const invalid = () => new HubProblem(401, "auth/invalid-key", "The key is unknown or revoked.", { headers: { "www-authenticate": 'Bearer error="invalid_token"' } });

/**
 * The caller of the request (also set as `c.var.caller`), whose audit
 * entries name `action` and `target`.
 * @param {import("./context.js").Context} c
 * @param {string} action
 * @param {string} target
 * @returns {Promise<import("./context.js").Caller>}
 */
export async function authenticate(c, action, target) {
  const { config, runtime, limiter, unknownKeys, lastUsed } = c.var.hub;
  const { token, present } = requestKey(c.req.raw);
  if (!present) throw new HubProblem(401, "auth/missing-key", "Send Authorization: Bearer <key>.", { headers: { "www-authenticate": "Bearer" } });
  const parsed = parseKey(token);
  if (!parsed) throw invalid();
  const storage = await runtime.team(parsed.team);
  // A team being imported (or never made) knows no key yet (team-record.js).
  const whole = storage !== null && (await isWhole(storage));
  const record = whole ? await readKey(storage, parsed.id) : undefined;
  if (!record || !sameDigest(record.hash, await hashKey(token))) {
    // A revoked key is still known by its id: refused as its member.
    const known = record ?? (whole ? await readRevoked(storage, parsed.id) : undefined);
    if (known === undefined) {
      const client = c.env?.client ?? "unknown";
      const wait = unknownKeys.take(parsed.team, client);
      if (wait > 0) {
        if (storage) await unknownKeys.flush(storage, parsed.team);
        throw rateLimited(wait, "refused requests with unknown keys");
      }
      if (storage) await unknownKeys.record(storage, parsed.team, client);
      throw invalid();
    }
    const wait = unknownKeys.limiter.take(`refused:${parsed.team}.${parsed.id}`);
    if (wait > 0) throw rateLimited(wait, "refused requests with this key");
    await appendAudit(storage, { member: known.member, keyId: parsed.id, action, target, revision: null, status: 401 }, config.auditMax);
    throw invalid();
  }
  // Known from here on: the request log names the key's team and member.
  c.set("caller", { team: parsed.team, keyId: parsed.id, member: record.member, storage });
  const refusal = await keyRefusal(storage, record);
  if (refusal) {
    const wait = unknownKeys.limiter.take(`refused:${parsed.team}.${parsed.id}`);
    if (wait > 0) throw rateLimited(wait, "refused requests with this key");
    await appendAudit(storage, { member: record.member, keyId: parsed.id, action, target, revision: null, status: 401, refused: refusal.code }, config.auditMax);
    throw new HubProblem(401, refusal.code, refusal.detail, { headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
  }
  charge(limiter, parsed.team, parsed.id);
  // Kept apart from the key record, so that this write can never bring
  // back a key revoked meanwhile.
  const now = Date.now();
  const used = lastUsed.get(`${parsed.team}.${parsed.id}`);
  if (used === undefined || now - used > LAST_USED_EVERY_MS) {
    lastUsed.set(`${parsed.team}.${parsed.id}`, now);
    await writeUsed(storage, parsed.id, new Date(now).toISOString());
  }
  const who = acting({ team: parsed.team, storage, keyId: parsed.id, member: record.member, role: record.role, expiresAt: record.expiresAt ?? null, auditMax: config.auditMax }, action, target);
  c.set("caller", who);
  return who;
}

/**
 * One more request of a key (a tool call of an MCP request) against its
 * rate, as `authenticate` counts each request: 429 past it.
 * @param {import("./rate-limit.js").RateLimiter} limiter
 * @param {string} team
 * @param {string} keyId
 */
export function charge(limiter, team, keyId) {
  const wait = limiter.take(`${team}.${keyId}`);
  if (wait > 0) throw rateLimited(wait);
}

/**
 * The caller `who` acting as `action` on `target`: the same key, whose
 * audit entries name them (a route's, or an MCP tool's call).
 * @param {Omit<import("./context.js").Caller, "audit" | "refuse">} who
 * @param {string} action
 * @param {string} target
 * @returns {import("./context.js").Caller}
 */
export function acting(who, action, target) {
  const as = { ...who };
  as.audit = (entry) => appendAudit(who.storage, { member: who.member, keyId: who.keyId, action, target, revision: null, ...entry }, who.auditMax);
  as.refuse = async (problem, more = {}) => {
    await as.audit({ status: problem.status, ...more });
    return problem;
  };
  return as;
}

/**
 * Audit a refusal thrown after the key is known: a HubProblem (a 429 is
 * not the caller's doing) is recorded with its status; anything else is not.
 * @param {import("./context.js").Caller} who
 * @param {unknown} error
 */
export async function auditRefused(who, error) {
  if (error instanceof HubProblem && error.status !== 429) await who.audit({ status: error.status });
}
