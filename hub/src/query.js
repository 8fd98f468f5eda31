// Query parameters every route reads alike.
import { HubProblem } from "./problem.js";

/**
 * A boolean parameter: absent or "false" is false, "true" true, anything
 * else 400.
 * @param {import("hono").Context} c
 * @param {string} name
 */
export function flag(c, name) {
  const value = c.req.query(name);
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new HubProblem(400, "request/invalid-query", `?${name} must be true or false.`);
}
