// The memories a key can open: `GET /v1/teams/{team}/memories` lists the
// team memories of the key's team (directory.js), the member's own user
// memory (never another member's) and the team's live task memories.
import { Hono } from "hono";

import { teamRole } from "../access.js";
import { allow } from "../allow.js";
import { listEntries, readEntry } from "../data/memory.js";
import { liveTasks } from "../tasks.js";

const LIST_LIMIT = 1000;

/** @type {Hono<import("../context.js").Env>} */
export const directory = new Hono();

directory.get("/memories", teamRole("memories", "reader"), async (c) => {
  const who = c.var.caller;
  const team = await listEntries(who.storage, { scope: "team", limit: LIST_LIMIT + 1 });
  const own = await readEntry(who.storage, { scope: "user", id: who.member });
  const memories = [
    ...(own === undefined ? [] : [{ scope: "user", id: who.member }]),
    ...team.slice(0, LIST_LIMIT).map((e) => ({ scope: "team", id: e.id })),
    ...(await liveTasks(who.storage)),
  ];
  return c.json({ memories, truncated: team.length > LIST_LIMIT });
});
directory.all("/memories", allow("GET"));
