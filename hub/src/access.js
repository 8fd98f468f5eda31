// What a caller may reach, as middleware before each route's handler: any
// valid key (`anyKey`), the key's own team with a role at least the one
// named (`teamRole`: another team is "no such team", 404; a lesser role
// 403), and one memory (`memoryRole`: a memory of another team, another
// member's user memory and a deleted memory are all "no such memory").
// Each refusal after the key is known is audited. The caller is in
// `c.var.caller`, the memory in `c.var.memory`. The rules themselves
// (`requireRole`, `reachMemory`, `reachTask`) are functions of the caller,
// which the MCP tools apply too.
import { auditRefused, authenticate } from "./caller.js";
import { deletedMarker, deletedProblem } from "./deletion.js";
import { MEMORY_ID, ROLES } from "./ids.js";
import { HubProblem } from "./problem.js";
import { engineRef, taskStore } from "./tasks.js";

/** The path of a memory, under /v1/teams/:team. */
export const MEMORY_PATH = "/memories/:scope/:id";

/**
 * What an argument of these middlewares may be: a value, or its function
 * of the request.
 * @template T
 * @typedef {T | ((c: import("./context.js").Context) => T)} OfRequest
 */
const of = (value, c) => (typeof value === "function" ? value(c) : value);

const forbidden = (need, role) => new HubProblem(403, "auth/forbidden", `This needs the ${need} role; the key is ${role}.`);

/**
 * Any valid key, its audit entries naming `action` and `target`.
 * @param {string} action
 * @param {string} target
 */
export const anyKey = (action, target) => async (c, next) => {
  await authenticate(c, action, target);
  await next();
};

/**
 * The caller of a team route: its key's team must be the path's (404),
 * its role at least `need` (403).
 * @param {import("./context.js").Context} c
 * @param {string} action
 * @param {string} need
 * @param {string} [target] default: the team
 */
export async function teamCaller(c, action, need, target) {
  const team = c.req.param("team");
  const who = await authenticate(c, action, target ?? `team/${team}`);
  if (team !== who.team) throw await who.refuse(new HubProblem(404, "team/not-found", "There is no such team."), { target: `teams/${team}` });
  await requireRole(who, need);
  return who;
}

/**
 * A role at least `need` (403, audited).
 * @param {import("./context.js").Caller} who
 * @param {string} need
 */
export async function requireRole(who, need) {
  if (ROLES.indexOf(who.role) < ROLES.indexOf(need)) throw await who.refuse(forbidden(need, who.role));
}

/**
 * A team route's middleware (`teamCaller`).
 * @param {string} action
 * @param {string} need
 * @param {OfRequest<string | undefined>} [target]
 */
export const teamRole = (action, need, target) => async (c, next) => {
  await teamCaller(c, action, need, of(target, c));
  await next();
};

/**
 * A memory route's middleware (on MEMORY_PATH): 404 for a memory the key
 * may not see, and for a deleted memory (409 for a save) unless
 * `o.deleted`; then the role (403).
 * @param {OfRequest<string>} action
 * @param {OfRequest<string>} need
 * @param {{ deleted?: boolean }} [o]
 */
export const memoryRole = (action, need, o = {}) => async (c, next) => {
  const { team, scope, id } = c.req.param();
  const who = await authenticate(c, of(action, c), `${scope}/${id}`);
  c.set("memory", await reachMemory(c.var.hub, who, { team, scope, id }, { action: of(action, c), need: of(need, c), deleted: o.deleted }));
  await next();
};

/**
 * The team or user memory `scope/id` of team `team` that `who` may reach
 * for `action` with at least the role `need` (`memoryRole`'s rule, the MCP
 * tools' too): 404 for a memory the key may not see and for a deleted one
 * (409 for a save) unless `deleted`, then 403 for a lesser role; each
 * refusal audited.
 * @param {import("./context.js").Hub} hub
 * @param {import("./context.js").Caller} who
 * @param {{ team: string, scope: string, id: string }} path
 * @param {{ action: string, need: string, deleted?: boolean }} o
 * @returns {Promise<import("./context.js").Memory>}
 */
export async function reachMemory(hub, who, { team, scope, id }, { action, need, deleted = false }) {
  const visible = team === who.team && ((scope === "team" && MEMORY_ID.test(id)) || (scope === "user" && id === who.member));
  // Another team's path is audited with that team's name.
  if (!visible) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory."), team === who.team ? {} : { target: `teams/${team}/${scope}/${id}` });
  await requireRole(who, need);
  const ref = { scope, id };
  if (!deleted && (await deletedMarker(who.storage, ref)) !== undefined) throw await who.refuse(deletedProblem(action));
  return { ref, store: hub.storeOf(who.storage) };
}

/**
 * The task memory `id` of the key's team (its caller's role checked
 * before, `teamCaller` or `requireRole`): 404 for an id no memory can
 * have, audited. Whether it expired is the services' to say.
 * @param {import("./context.js").Hub} hub
 * @param {import("./context.js").Caller} who
 * @param {string} id
 * @returns {Promise<import("./context.js").Memory>}
 */
export async function reachTask(hub, who, id) {
  if (!MEMORY_ID.test(id)) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory."));
  return { ref: engineRef(id), store: taskStore(who.storage, hub.config), task: true };
}

/**
 * After one of the above: a refusal the handler throws (a HubProblem; a
 * 429 is not the caller's doing) is audited with its status.
 * @type {import("hono").MiddlewareHandler<import("./context.js").Env>}
 */
export async function auditRefusals(c, next) {
  await next();
  await auditRefused(c.var.caller, c.error);
}
