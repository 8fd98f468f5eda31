// `GET /v1/teams/{team}/stats?since=`, the team's figures for its admins
// (docs/HUB.md, "Observability"; stats.js).
import { Hono } from "hono";

import { auditRefusals, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { indexLagOf, readStats } from "../stats.js";

/** @type {Hono<import("../context.js").Env>} */
export const stats = new Hono();

stats.get("/stats", teamRole("stats", "admin"), auditRefusals, async (c) => {
  const { caller: who, hub } = c.var;
  return c.json(await readStats(who.storage, c.req.query("since"), hub.embedder === null ? null : indexLagOf(hub)));
});
stats.all("/stats", allow("GET"));
