// Recall (docs/HUB.md, "Recall and lifecycle"): `GET {m}/recall?q=&budget=`
// recalls one memory (services/memories.js's `recallMemory`), and `GET
// /v1/teams/{team}/recall?q=&budget=` ("Recall across a team") makes one
// recall over the memories the key can read (services/team-recall.js).
import { Hono } from "hono";

import { MEMORY_PATH as M, memoryRole, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { etag } from "../etag.js";
import { recallMemory } from "../services/memories.js";
import { recallTeam } from "../services/team-recall.js";

/** @type {Hono<import("../context.js").Env>} */
export const recalls = new Hono();

recalls.get(`${M}/recall`, memoryRole("recall", "reader"), async (c) => {
  const recalled = await recallMemory(c.var.hub, c.var.caller, c.var.memory, c.req.query());
  return c.json(recalled, 200, { etag: etag(recalled.revision) });
});
recalls.all(`${M}/recall`, allow("GET"));

recalls.get("/recall", teamRole("recall", "reader"), async (c) => c.json(await recallTeam(c.var.hub, c.var.caller, c.req.query())));
recalls.all("/recall", allow("GET"));
