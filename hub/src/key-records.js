// A team's key records (data/key.js): the key's member, role,
// label, dates and the SHA-256 of the key (keys.js), never the key itself,
// which is shown once, when it is made. Changes that could leave a team
// without an admin key (a revocation, a member disabled) run one at a time.
import { writeKey } from "./data/key.js";
import { newKey, hashKey } from "./keys.js";
import { MEMBER, ROLES } from "./ids.js";
import { expiresAtOf } from "./members.js";
import { HubProblem } from "./problem.js";

/** Key revocations and member changes of a team, one at a time (the last admin key must stay). */
export { memberChanges as oneAtATime } from "./data/member.js";

/** A key record as the API shows it (no hash). */
export function publicKey(r) {
  return { id: r.id, member: r.member, role: r.role, label: r.label, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt, expiresAt: r.expiresAt ?? null };
}

/** Make a key of `team` and keep its record: the public record and the key (`key`). */
export async function addKey(storage, team, { member, role, label, expiresAt = null }) {
  const { id, secret } = newKey(team);
  const record = { id, member, role, label, createdAt: new Date().toISOString(), lastUsedAt: null, expiresAt, hash: await hashKey(secret) };
  await writeKey(storage, id, record);
  return { ...publicKey(record), key: secret };
}

/** A key request's `{member, role, label, expiresAt}`, or a 400 problem. */
export function keyRequest(body) {
  if (typeof body.member !== "string" || !MEMBER.test(body.member)) {
    throw new HubProblem(400, "request/invalid-member", '`member` must be 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit.');
  }
  if (!ROLES.includes(body.role)) throw new HubProblem(400, "request/invalid-body", "`role` must be reader, writer or admin.");
  if (body.label !== undefined && body.label !== null && (typeof body.label !== "string" || body.label.length > 200)) {
    throw new HubProblem(400, "request/invalid-body", "`label` must be a string of at most 200 characters.");
  }
  return { member: body.member, role: body.role, label: body.label ?? null, expiresAt: expiresAtOf(body.expiresAt) };
}
