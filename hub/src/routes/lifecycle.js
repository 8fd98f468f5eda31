// A team's lifecycle (docs/HUB.md, "Recall and lifecycle"), for its admins:
// its expiry policies, `GET`/`PUT /v1/teams/{team}/policies`, and a sweep
// now, `POST /v1/teams/{team}/sweep` (lifecycle.js).
import { Hono } from "hono";
import { expire } from "memdoc";

import { auditRefusals, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { readJson } from "../body.js";
import { utcToday } from "../dates.js";
import { sweepTeam } from "../lifecycle.js";
import { checkedPolicies, readPolicies, writePolicies } from "../policies.js";
import { engineProblem, HubProblem } from "../problem.js";

/** @type {Hono<import("../context.js").Env>} */
export const lifecycle = new Hono();

lifecycle.get("/policies", teamRole("policies.read", "admin"), async (c) => c.json({ policies: await readPolicies(c.var.caller.storage) }));
lifecycle.put("/policies", teamRole("policies.set", "admin"), auditRefusals, async (c) => {
  const { caller: who, hub } = c.var;
  const policies = checkedPolicies(await readJson(c.req.raw, hub.config));
  await writePolicies(who.storage, policies);
  await hub.runtime.policiesChanged?.({ team: who.team, storage: who.storage, policies });
  await who.audit({ status: 200 });
  return c.json({ policies });
});
lifecycle.all("/policies", allow("GET, PUT"));

lifecycle.post("/sweep", teamRole("sweep", "admin"), async (c) => {
  const { caller: who, hub } = c.var;
  const today = c.req.query("today") ?? utcToday();
  try {
    expire("", { today, policies: [] });
  } catch (error) {
    const problem = engineProblem(error);
    throw problem instanceof HubProblem ? await who.refuse(problem) : problem;
  }
  const result = await sweepTeam({ storage: who.storage, store: hub.storeOf(who.storage), today, member: who.member, keyId: who.keyId, auditMax: hub.config.auditMax, changed: hub.runtime.changed, metrics: hub.metrics });
  return c.json(result);
});
lifecycle.all("/sweep", allow("POST"));
