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
// way back in then. The routes are routes/members.js's.
import { listKeys } from "./data/key.js";
import { listMembers as listStatuses, readMember } from "./data/member.js";
import { listRevoked } from "./data/revoked.js";
import { lastUses } from "./data/used.js";
import { instantOf } from "./dates.js";
import { HubProblem } from "./problem.js";

/** The longest grace of a rotation: 30 days. */
export const GRACE_MAX_SECONDS = 30 * 86_400;
export const KEY_ID = /^[a-f0-9]{16}$/;

/** A member's status record, `active` when none was set. */
async function statusOf(storage, member) {
  return (await readMember(storage, member))?.status ?? "active";
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
  const at = instantOf(value);
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
  const admins = (await listKeys(storage)).filter((r) => r.role === "admin" && r.member !== member && r.id !== keyId && !expired(r, now));
  const out = [];
  for (const r of admins) if ((await statusOf(storage, r.member)) === "active") out.push(r);
  return out;
}

/** Whether `member` is known to the team: a key (live or revoked) or a status names them. */
export async function memberExists(storage, member) {
  if ((await readMember(storage, member)) !== undefined) return true;
  for (const list of [listKeys, listRevoked]) if ((await list(storage)).some((r) => r.member === member)) return true;
  return false;
}

/**
 * A key for `member` asked by an admin who is `caller`: a member's keys
 * open their user memory, which no other admin reads (docs/HUB.md, "Members
 * and keys"), so an existing member's keys are made by that member or the
 * operator. A 403 otherwise.
 */
export async function checkKeyFor(storage, caller, member) {
  if (member !== caller && (await memberExists(storage, member))) {
    throw new HubProblem(403, "auth/forbidden", `Only ${member} or the operator makes keys for the existing member ${member}: their keys open their user memory.`);
  }
}

/** Every member with a key or a status, with their key ids and last use. */
export async function listMembers(storage) {
  const used = await lastUses(storage);
  const members = new Map();
  const entry = (member) => {
    if (!members.has(member)) members.set(member, { member, status: "active", keys: [], lastUsedAt: null });
    return members.get(member);
  };
  for (const r of await listKeys(storage)) {
    const m = entry(r.member);
    m.keys.push(r.id);
    const at = used.get(r.id) ?? null;
    if (at !== null && (m.lastUsedAt === null || at > m.lastUsedAt)) m.lastUsedAt = at;
  }
  for (const { member, status } of await listStatuses(storage)) entry(member).status = status;
  return [...members.values()].sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
}
