// Query parameters every route reads alike.
import { HubProblem } from "./problem.js";

/**
 * A boolean parameter: absent or "false" is false, "true" true, anything
 * else 400.
 * @param {import("hono").Context} c
 * @param {string} name
 */
export const flag = (c, name) => flagOf(c.req.query(name), name);

/**
 * A boolean parameter's value (`flag`'s rule), for a service given the
 * request's parameters as a record.
 * @param {string | undefined} value
 * @param {string} name
 */
export function flagOf(value, name) {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new HubProblem(400, "request/invalid-query", `?${name} must be true or false.`);
}
