// `GET /v1/whoami`: what the presented key is (its team, member, role and
// id), so that a client holding only a key (the editor, the MCP route) knows
// which memories it may open. Any valid key; no secrets in the answer.
import { Hono } from "hono";

import { anyKey } from "../access.js";
import { allow } from "../allow.js";

/** @type {Hono<import("../context.js").Env>} */
export const whoami = new Hono();

whoami.get("/", anyKey("whoami", "key"), (c) => {
  const who = c.var.caller;
  return c.json({ team: who.team, member: who.member, role: who.role, keyId: who.keyId });
});
whoami.all("/", allow("GET"));
