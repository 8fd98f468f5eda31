// Task memories, `/v1/teams/{team}/memories/task/{id}` (docs/HUB.md, "Task
// memories"; tasks.js): `PUT ?ttl=` (writers) saves one by the team rules
// and sets its expiry; `GET`, its prompt block, recall, history and events
// are a reader's while it has not expired. Mounted before the routes of
// {m}, which answer 404 for the scope `task`.
import { Hono } from "hono";

import { auditRefusals, reachTask, teamCaller } from "../access.js";
import { readDocument } from "../body.js";
import { etag, ifMatch } from "../etag.js";
import { HubProblem } from "../problem.js";
import { flag } from "../query.js";
import { loadMemory, memoryHistory, memoryPrompt, readMemory, recallMemory, saveMemory } from "../services/memories.js";
import { TTL_MAX_SECONDS } from "../tasks.js";
import { offeredProtocols, requireUpgrade, subscribeWithin } from "./events.js";

const T = "/memories/task/:id";

/**
 * The caller of a task memory's route: 404 for an id no memory can have.
 * Sets `c.var.memory` (the engine's ref of the task memory).
 * @param {string} action
 * @param {string} need
 */
const taskRole = (action, need) => async (c, next) => {
  const id = c.req.param("id");
  const who = await teamCaller(c, action, need, `task/${id}`);
  c.set("memory", await reachTask(c.var.hub, who, id));
  await next();
};

/** @type {Hono<import("../context.js").Env>} */
export const tasks = new Hono();

tasks.put(T, taskRole("save", "writer"), auditRefusals, async (c) => {
  const { caller: who, memory, hub } = c.var;
  const raw = c.req.query("ttl");
  const ttl = raw === undefined ? hub.config.taskTtlSeconds : /^[0-9]{1,8}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(ttl >= 1 && ttl <= TTL_MAX_SECONDS)) throw new HubProblem(400, "request/invalid-query", `?ttl must be a whole number of seconds from 1 to ${TTL_MAX_SECONDS}.`);
  const base = ifMatch(c);
  const allowErase = flag(c, "allowErase");
  const content = await readDocument(c.req.raw, hub.config);
  const body = await saveMemory(hub, who, memory, content, { base, allowErase, ttl });
  return c.json(body, 200, { etag: etag(body.revision) });
});

tasks.get(T, taskRole("read", "reader"), async (c) => {
  const { loaded } = await readMemory(c.var.caller, c.var.memory);
  return c.json(loaded, 200, { etag: etag(loaded.revision) });
});
// What the MCP tools read (as `GET {m}/prompt`, `/recall`, `/history`).
tasks.get(`${T}/prompt`, taskRole("prompt", "reader"), async (c) => {
  const { loaded, block } = await memoryPrompt(c.var.hub, c.var.caller, c.var.memory, c.req.query());
  return c.body(block, 200, { "content-type": "text/plain; charset=utf-8", etag: etag(loaded.revision) });
});
tasks.get(`${T}/recall`, taskRole("recall", "reader"), async (c) => {
  const recalled = await recallMemory(c.var.hub, c.var.caller, c.var.memory, c.req.query());
  return c.json(recalled, 200, { etag: etag(recalled.revision) });
});
tasks.get(`${T}/events`, taskRole("events", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const loaded = await loadMemory(who, c.var.memory);
  requireUpgrade(c);
  const protocol = offeredProtocols(c).includes("memdoc") ? "memdoc" : null;
  const response = await subscribeWithin(c, { store, ref, after: loaded.revision, protocol, tag: `task/${ref.id}` });
  await who.audit({ status: 101, revision: loaded.revision });
  return response;
});
tasks.get(`${T}/history`, taskRole("history", "reader"), async (c) => c.json({ entries: await memoryHistory(c.var.caller, c.var.memory) }));
// Another method: 405, to a caller who may read the team's memories.
for (const [path, methods] of [[T, "GET, PUT"], [`${T}/prompt`, "GET"], [`${T}/recall`, "GET"], [`${T}/history`, "GET"], [`${T}/events`, "GET"]]) {
  tasks.all(path, taskRole("read", "reader"), () => {
    throw new HubProblem(405, "http/method-not-allowed", `Use ${methods}.`, { headers: { allow: methods } });
  });
}
