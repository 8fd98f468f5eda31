// Teams, the operator's (docs/HUB.md, "Tenancy, keys, roles"): `POST
// /v1/teams` creates one with its first admin key, `DELETE
// /v1/teams/{team}` removes a team and everything in it. Importing a team
// is routes/backup.js's.
import { Hono } from "hono";

import { allow } from "../allow.js";
import { appendAudit } from "../audit.js";
import { readJson } from "../body.js";
import { clearTeam } from "../data/team.js";
import { TEAM_DELETED } from "../events.js";
import { MEMBER } from "../ids.js";
import { addKey } from "../key-records.js";
import { TEAM_ID } from "../keys.js";
import { existingTeam, operatorOnly } from "../operator.js";
import { HubProblem } from "../problem.js";
import { claimTeam, forgetTeam } from "../team-record.js";

/** @type {Hono<import("../context.js").Env>} */
export const teams = new Hono();

teams.post("/", operatorOnly(), async (c) => {
  const { config, runtime } = c.var.hub;
  const body = await readJson(c.req.raw, config);
  if (typeof body.team !== "string" || !TEAM_ID.test(body.team)) {
    throw new HubProblem(400, "request/invalid-team", "`team` must be 1-64 of a-z, 0-9 and -, starting with a letter or digit.");
  }
  const storage = await runtime.team(body.team, { create: true });
  if (!storage) throw new HubProblem(503, "team/unavailable", "This server does not hold that team.");
  const admin = body.admin === undefined ? "admin" : body.admin;
  if (typeof admin !== "string" || !MEMBER.test(admin)) throw new HubProblem(400, "request/invalid-member", "`admin` must be a member id: 1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit.");
  const createdAt = new Date().toISOString();
  if (!(await claimTeam(storage, { team: body.team, createdAt }))) {
    throw new HubProblem(409, "team/exists", "That team exists.");
  }
  const key = await addKey(storage, body.team, { member: admin, role: "admin", label: "first admin" });
  await appendAudit(storage, { member: null, keyId: null, action: "team.create", target: `team/${body.team}`, revision: null, status: 201 }, config.auditMax);
  return c.json({ team: body.team, key: key.key, keyId: key.id, member: admin }, 201, { location: `/v1/teams/${body.team}` });
});
teams.all("/", allow("POST"));

teams.delete("/:team", operatorOnly(), async (c) => {
  const { team, storage } = await existingTeam(c);
  // The record of the team goes with the rest, so the id can be created again.
  // Its sockets close first (a change the deletion makes would close them as
  // revoked), and again after, for any opened meanwhile.
  c.var.hub.runtime.closeSockets?.({ storage, close: TEAM_DELETED });
  await clearTeam(storage);
  c.var.hub.runtime.closeSockets?.({ storage, close: TEAM_DELETED });
  forgetTeam(storage);
  await c.var.hub.runtime.teamDeleted?.({ team, storage });
  return c.body(null, 204);
});
teams.all("/:team", allow("DELETE"));
