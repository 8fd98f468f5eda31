// The memories a key can open: `GET /v1/teams/{team}/memories` lists the
// team memories of the key's team and the member's own user memory, never
// another member's. The list is an index beside the memories (the key
// ["memory", scope, id] in the team's storage), written after every save
// that changed a memory. It names memories and holds nothing else, so an
// entry written twice is harmless; a save acknowledged before its entry was
// written (a crash between the two) appears with the memory's next save.

import { problemResponse } from "./problem.js";
import { liveTasks } from "./tasks.js";

const LIST_LIMIT = 1000;

/** Note that `ref` exists (put only if absent: one write per memory, ever). */
export function recordMemory(storage, ref) {
  return storage.create(["memory", ref.scope, ref.id], { since: new Date().toISOString() });
}

/** The ids of every team memory of the team the storage belongs to. */
export async function teamMemoryIds(storage) {
  return (await storage.list(["memory", "team"])).map((e) => e.key[2]);
}

/**
 * @param {import("hono").Hono} app
 * @param {(c: any, action: string, need: string) => Promise<{ storage: any, member: string }>} teamCaller
 *   the hub's authentication of a team route, with the role it needs
 */
export function mountDirectory(app, teamCaller) {
  app.get("/v1/teams/:team/memories", async (c) => {
    const who = await teamCaller(c, "memories", "reader");
    const team = await who.storage.list(["memory", "team"], { limit: LIST_LIMIT + 1 });
    const own = await who.storage.get(["memory", "user", who.member]);
    const memories = [
      ...(own === undefined ? [] : [{ scope: "user", id: who.member }]),
      ...team.slice(0, LIST_LIMIT).map((e) => ({ scope: "team", id: e.key[2] })),
      ...(await liveTasks(who.storage)),
    ];
    return c.json({ memories, truncated: team.length > LIST_LIMIT });
  });
  app.all("/v1/teams/:team/memories", () => problemResponse(405, "http/method-not-allowed", "Use GET.", { headers: { allow: "GET" } }));
}
