// A team's keys (docs/HUB.md, "Members and keys"): its admins list them,
// make one (shown once) and revoke one; the operator can make one for an
// existing team (its way back in). Rotation is routes/members.js's.
import { Hono } from "hono";

import { auditRefusals, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { appendAudit } from "../audit.js";
import { readJson } from "../body.js";
import { deleteKey, listKeys, readKey } from "../data/key.js";
import { writeRevoked } from "../data/revoked.js";
import { lastUses } from "../data/used.js";
import { closeOf } from "../events.js";
import { addKey, keyRequest, oneAtATime, publicKey } from "../key-records.js";
import { KEY_ID, activeAdminKeys, checkKeyFor } from "../members.js";
import { existingTeam, isOperator, operatorRate } from "../operator.js";
import { HubProblem } from "../problem.js";

/** @type {Hono<import("../context.js").Env>} */
export const keys = new Hono();

/** The operator's request, answered here; anyone else's goes on to the admin's route. */
async function byOperator(c, next) {
  if (!(await isOperator(c))) return next();
  const { config } = c.var.hub;
  operatorRate(c);
  const { team, storage } = await existingTeam(c);
  const key = await addKey(storage, team, keyRequest(await readJson(c.req.raw, config)));
  await appendAudit(storage, { member: null, keyId: null, action: "key.create", target: `key/${key.id}`, revision: null, status: 201, by: "operator" }, config.auditMax);
  return c.json(key, 201);
}

keys.post("/keys", byOperator, teamRole("key.create", "admin"), auditRefusals, async (c) => {
  const { caller: who, hub } = c.var;
  const request = keyRequest(await readJson(c.req.raw, hub.config));
  await checkKeyFor(who.storage, who.member, request.member);
  const key = await addKey(who.storage, who.team, request);
  await who.audit({ status: 201, target: `key/${key.id}` });
  return c.json(key, 201);
});
keys.get("/keys", teamRole("key.list", "admin"), async (c) => {
  const { storage } = c.var.caller;
  const used = await lastUses(storage);
  return c.json({ keys: (await listKeys(storage)).map((r) => publicKey({ ...r, lastUsedAt: used.get(r.id) ?? null })) });
});
keys.all("/keys", allow("GET, POST"));

keys.delete("/keys/:keyId", teamRole("key.revoke", "admin", (c) => `key/${c.req.param("keyId")}`), async (c) => {
  const who = c.var.caller;
  const keyId = c.req.param("keyId");
  await oneAtATime(who.storage, async () => {
    const record = KEY_ID.test(keyId) ? await readKey(who.storage, keyId) : undefined;
    if (record === undefined) throw await who.refuse(new HubProblem(404, "key/not-found", "There is no such key."));
    if (record.role === "admin" && (await activeAdminKeys(who.storage, { keyId })).length === 0) {
      throw await who.refuse(new HubProblem(409, "key/last-admin", "This is the team's last admin key: create another admin key first. (The operator can also create one.)"));
    }
    // The id stays known, so that a revoked key's use is audited as its member's.
    await writeRevoked(who.storage, keyId, { member: record.member, role: record.role, revokedAt: new Date().toISOString() });
    await deleteKey(who.storage, keyId);
  });
  c.var.hub.runtime.closeSockets?.({ storage: who.storage, keyId, close: closeOf("auth/invalid-key") });
  await who.audit({ status: 204 });
  return c.body(null, 204);
});
keys.all("/keys/:keyId", allow("DELETE"));
