// Backup and restore of a whole team (docs/HUB.md, "Backup and restore";
// backup.js): `GET /v1/teams/{team}/export` answers the team as NDJSON,
// the full backup to the operator and to an admin without other members'
// user memories, and `POST /v1/teams/{team}/import` (operator) writes such
// an export into a team that does not exist yet, whole or not at all.
import { Hono } from "hono";

import { teamRole } from "../access.js";
import { allow } from "../allow.js";
import { appendAudit } from "../audit.js";
import { checkMemories, exportLines, parseExport, writeImport } from "../backup.js";
import { readText } from "../body.js";
import { TEAM_ID } from "../keys.js";
import { existingTeam, isOperator, operatorOnly, operatorRate } from "../operator.js";
import { HubProblem } from "../problem.js";
import { importTeam } from "../team-record.js";

/** @type {Hono<import("../context.js").Env>} */
export const backup = new Hono();

/** The operator's export: the full backup, every user memory with it. */
async function byOperator(c, next) {
  if (!(await isOperator(c))) return next();
  operatorRate(c);
  const { team, storage } = await existingTeam(c);
  const lines = await exportLines(storage, team);
  await appendAudit(storage, { member: null, keyId: null, action: "team.export", target: `team/${team}`, revision: null, status: 200, by: "operator", records: lines.length - 1 }, c.var.hub.config.auditMax);
  return ndjson(c, lines);
}

const ndjson = (c, lines) => c.body(`${lines.join("\n")}\n`, 200, { "content-type": "application/x-ndjson; charset=utf-8" });

backup.get("/export", byOperator, teamRole("team.export", "admin"), async (c) => {
  const who = c.var.caller;
  // The team's memories and the admin's own user memory: no other member's.
  const lines = await exportLines(who.storage, who.team, { member: who.member });
  // After the read: the export's own audit entry is in the next export.
  await who.audit({ status: 200, records: lines.length - 1 });
  return ndjson(c, lines);
});
backup.all("/export", allow("GET"));

backup.post("/import", operatorOnly(), async (c) => {
  const { config, runtime } = c.var.hub;
  const team = c.req.param("team");
  const storage = TEAM_ID.test(team) ? await runtime.team(team, { create: true }) : null;
  if (!storage) throw new HubProblem(404, "team/not-found", "This server does not hold that team.");
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-ndjson") throw new HubProblem(415, "http/unsupported-media-type", "Send application/x-ndjson (an export).");
  const text = await readText(c.req.raw, { ...config, bodyCap: config.importCap });
  const parsed = parseExport(text, team, config);
  await checkMemories(parsed, config.historyDepth);
  const counts = { members: parsed.members.size, keys: parsed.keys.length, policies: parsed.policies.length, memories: parsed.memories.size, revisions: parsed.revisions.length, deleted: parsed.deleted.length, audit: parsed.audit.length };
  await importTeam(storage, { team, createdAt: parsed.createdAt ?? new Date().toISOString() }, async () => {
    await writeImport(storage, parsed);
    await appendAudit(storage, { member: null, keyId: null, action: "team.import", target: `team/${team}`, revision: null, status: 201, by: "operator", ...counts }, config.auditMax);
  });
  if (parsed.policies.length > 0) await runtime.policiesChanged?.({ team, storage, policies: parsed.policies });
  if (parsed.deleted.length > 0) await runtime.scheduleSweep?.({ team, storage });
  return c.json({ team, ...counts }, 201, { location: `/v1/teams/${team}` });
});
backup.all("/import", allow("POST"));
