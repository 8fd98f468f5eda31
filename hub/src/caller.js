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
  const wait = limiter.take(`${parsed.team}.${parsed.id}`);
  if (wait > 0) throw rateLimited(wait);
  // Kept apart from the key record, so that this write can never bring
  // back a key revoked meanwhile.
  const now = Date.now();
  const used = lastUsed.get(`${parsed.team}.${parsed.id}`);
  if (used === undefined || now - used > LAST_USED_EVERY_MS) {
    lastUsed.set(`${parsed.team}.${parsed.id}`, now);
    await writeUsed(storage, parsed.id, new Date(now).toISOString());
  }
  const who = { team: parsed.team, storage, keyId: parsed.id, member: record.member, role: record.role, expiresAt: record.expiresAt ?? null };
  c.set("caller", who);
  who.audit = (entry) => appendAudit(storage, { member: who.member, keyId: who.keyId, action, target, revision: null, ...entry }, config.auditMax);
  who.refuse = async (problem, more = {}) => {
    await who.audit({ status: problem.status, ...more });
    return problem;
  };
  return who;
}
