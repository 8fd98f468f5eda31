// A team's members and the life of their keys, for its admins (docs/HUB.md,
// "Members and keys"; members.js): the members, disabling one or making
// them active again, and rotating a key into a new one with a grace period.
import { Hono } from "hono";

import { teamRole } from "../access.js";
import { allow } from "../allow.js";
import { readJson } from "../body.js";
import { readKey, writeKey } from "../data/key.js";
import { writeMember } from "../data/member.js";
import { MEMBER } from "../ids.js";
import { closeOf } from "../events.js";
import { addKey, oneAtATime } from "../key-records.js";
import { GRACE_MAX_SECONDS, KEY_ID, activeAdminKeys, listMembers } from "../members.js";
import { HubProblem } from "../problem.js";

/** The JSON body, a problem of it refused (audited). */
async function body(c) {
  try {
    return await readJson(c.req.raw, c.var.hub.config);
  } catch (error) {
    throw error instanceof HubProblem ? await c.var.caller.refuse(error) : error;
  }
}

/** @type {Hono<import("../context.js").Env>} */
export const members = new Hono();

members.get("/members", teamRole("member.list", "admin"), async (c) => c.json({ members: await listMembers(c.var.caller.storage) }));
members.all("/members", allow("GET"));

members.patch("/members/:member", teamRole("member.status", "admin", (c) => `member/${c.req.param("member")}`), async (c) => {
  const who = c.var.caller;
  const member = c.req.param("member");
  const request = await body(c);
  if (request.status !== "disabled" && request.status !== "active") {
    throw await who.refuse(new HubProblem(400, "request/invalid-body", '`status` must be "disabled" or "active".'));
  }
  const result = await oneAtATime(who.storage, async () => {
    const found = MEMBER.test(member) ? (await listMembers(who.storage)).find((m) => m.member === member) : undefined;
    if (found === undefined) throw await who.refuse(new HubProblem(404, "member/not-found", "There is no such member (a member is known by a key)."));
    if (request.status === "disabled" && (await activeAdminKeys(who.storage, { member })).length === 0) {
      throw await who.refuse(new HubProblem(409, "member/last-admin", "This member holds the team's last active admin key: create an admin key for another member first. (The operator can also create one.)"));
    }
    await writeMember(who.storage, member, { status: request.status, changedAt: new Date().toISOString(), changedBy: who.member });
    return { ...found, status: request.status };
  });
  if (request.status === "disabled") c.var.hub.runtime.closeSockets?.({ storage: who.storage, member, close: closeOf("auth/member-disabled") });
  await who.audit({ status: 200, state: request.status });
  return c.json(result);
});
members.all("/members/:member", allow("PATCH"));

// A key is rotated by its own member, whatever their role: the new key
// opens that member's user memory (docs/HUB.md, "Members and keys").
members.post("/keys/:keyId/rotate", teamRole("key.rotate", "reader", (c) => `key/${c.req.param("keyId")}`), async (c) => {
  const who = c.var.caller;
  const keyId = c.req.param("keyId");
  const request = await body(c);
  const grace = request.graceSeconds;
  if (!Number.isInteger(grace) || grace < 0 || grace > GRACE_MAX_SECONDS) {
    throw await who.refuse(new HubProblem(400, "request/invalid-body", `\`graceSeconds\` must be a whole number from 0 to ${GRACE_MAX_SECONDS} (30 days).`));
  }
  const { key, end } = await oneAtATime(who.storage, async () => {
    const old = KEY_ID.test(keyId) ? await readKey(who.storage, keyId) : undefined;
    if (old === undefined) throw await who.refuse(new HubProblem(404, "key/not-found", "There is no such key."));
    if (old.member !== who.member) throw await who.refuse(new HubProblem(403, "auth/forbidden", `Only ${old.member} rotates their keys: a key opens its member's user memory. (An admin revokes it; the operator makes a new one.)`));
    const now = Date.now();
    const fresh = await addKey(who.storage, who.team, { member: old.member, role: old.role, label: old.label, expiresAt: old.expiresAt ?? null });
    // The old key ends with its grace (or its own expiry, when sooner).
    const end = Math.min(now + grace * 1000, old.expiresAt == null ? Infinity : Date.parse(old.expiresAt));
    await writeKey(who.storage, keyId, { ...old, expiresAt: new Date(end).toISOString(), rotatedTo: fresh.id });
    return { key: fresh, end: new Date(end).toISOString() };
  });
  // Without a grace the old key ends now; with one, its sockets close at the next change after it ends.
  if (Date.parse(end) <= Date.now()) c.var.hub.runtime.closeSockets?.({ storage: who.storage, keyId, close: closeOf("auth/key-expired") });
  await who.audit({ status: 201, rotatedTo: key.id });
  return c.json({ ...key, rotated: { id: keyId, expiresAt: end } }, 201);
});
members.all("/keys/:keyId/rotate", allow("POST"));
