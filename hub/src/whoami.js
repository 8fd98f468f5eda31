// `GET /v1/whoami`: what the presented key is (its team, member, role and
// id), so that a client holding only a key (the editor, the MCP route) knows
// which memories it may open. Any valid key; no secrets in the answer.
import { problemResponse } from "./problem.js";

/**
 * @param {import("hono").Hono} app
 * @param {(c: any, action: string, target: string) => Promise<{ team: string, member: string, role: string, keyId: string }>} caller
 *   the hub's authentication of a request
 */
export function mountWhoami(app, caller) {
  app.get("/v1/whoami", async (c) => {
    const who = await caller(c, "whoami", "key");
    return c.json({ team: who.team, member: who.member, role: who.role, keyId: who.keyId });
  });
  app.all("/v1/whoami", () => problemResponse(405, "http/method-not-allowed", "Use GET.", { headers: { allow: "GET" } }));
}
