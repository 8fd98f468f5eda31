// The operator: whoever holds the hub's operator token
// (MEMDOC_HUB_OPERATOR_TOKEN), who creates, imports and deletes teams, can
// give a team a key, and reads the metrics. The token is compared in
// constant time; an empty setting matches nothing.
import { TEAM_ID, hashKey, sameDigest } from "./keys.js";
import { HubProblem } from "./problem.js";
import { rateLimited } from "./rate-limit.js";
import { teamRecord } from "./team-record.js";

/**
 * Whether the request carries the operator token.
 * @param {import("./context.js").Context} c
 */
export async function isOperator(c) {
  const auth = c.req.header("authorization");
  const token = c.var.hub.config.operatorToken;
  return auth !== undefined && token !== "" && sameDigest(await hashKey(auth), await hashKey(`Bearer ${token}`));
}

/** Count one operator request (429 past the rate of a key). */
export function operatorRate(c) {
  const wait = c.var.hub.limiter.take("operator");
  if (wait > 0) throw rateLimited(wait, "operator requests");
}

/**
 * The middleware of a route only the operator may use: 401 without the
 * operator token; counted against its rate unless `o.rate` is false.
 * @param {{ rate?: boolean }} [o]
 */
export const operatorOnly = ({ rate = true } = {}) => async (c, next) => {
  if (c.req.header("authorization") === undefined) throw new HubProblem(401, "auth/missing-key", "Send Authorization: Bearer <operator token>.");
  if (!(await isOperator(c))) throw new HubProblem(401, "auth/invalid-key", "That is not the operator token.");
  if (rate) operatorRate(c);
  await next();
};

/**
 * The storage of the path's team, for the operator: 404 when this server
 * does not hold it or it was never created.
 * @param {import("./context.js").Context} c
 */
export async function existingTeam(c) {
  const team = c.req.param("team");
  const storage = TEAM_ID.test(team) ? await c.var.hub.runtime.team(team) : null;
  if (!storage || (await teamRecord(storage)) === undefined) throw new HubProblem(404, "team/not-found", "There is no such team.");
  return { team, storage };
}
