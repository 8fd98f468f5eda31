// A team's audit log, newest first, for its admins (docs/HUB.md, "Audit";
// audit.js): `GET /v1/teams/{team}/audit?limit=`.
import { Hono } from "hono";

import { teamRole } from "../access.js";
import { allow } from "../allow.js";
import { readAudit } from "../audit.js";
import { HubProblem } from "../problem.js";

/** The largest ?limit: the largest MEMDOC_HUB_AUDIT_MAX. */
const AUDIT_LIMIT_MAX = 100_000;

/** @type {Hono<import("../context.js").Env>} */
export const audit = new Hono();

audit.get("/audit", teamRole("audit", "admin"), async (c) => {
  const { caller: who, hub } = c.var;
  const raw = c.req.query("limit");
  const limit = raw === undefined ? 100 : /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= AUDIT_LIMIT_MAX)) {
    throw new HubProblem(400, "request/invalid-query", `?limit must be a whole number from 1 to ${AUDIT_LIMIT_MAX}.`);
  }
  // Never more than the log keeps.
  return c.json({ entries: await readAudit(who.storage, Math.min(limit, hub.config.auditMax)) });
});
audit.all("/audit", allow("GET"));
