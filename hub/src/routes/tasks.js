// Task memories, `/v1/teams/{team}/memories/task/{id}` (docs/HUB.md, "Task
// memories"; tasks.js): `PUT ?ttl=` (writers) saves one by the team rules
// and sets its expiry; `GET`, its prompt block, recall, history and events
// are a reader's while it has not expired. Mounted before the routes of
// {m}, which answer 404 for the scope `task`.
import { Hono } from "hono";
import { injectionBlock } from "memdoc";

import { auditRefusals, teamCaller } from "../access.js";
import { readDocument } from "../body.js";
import { exclusive } from "../deletion.js";
import { etag, ifMatch } from "../etag.js";
import { MEMORY_ID } from "../ids.js";
import { recallFor } from "../lifecycle.js";
import { omittedAnswer } from "../recall-answer.js";
import { HubProblem } from "../problem.js";
import { flag } from "../query.js";
import { answerSave } from "../saved.js";
import { taskHeadKey } from "../data/memories.js";
import { TTL_MAX_SECONDS, engineRef, expireTask, expiryOf, pastExpiry, setExpiry, taskStore } from "../tasks.js";
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
  if (!MEMORY_ID.test(id)) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory."));
  c.set("memory", { ref: engineRef(id), store: taskStore(who.storage, c.var.hub.config) });
  await next();
};

/** A read of a task memory not expired: its expiry and content. */
async function live(c) {
  const { caller: who, memory: { ref, store } } = c.var;
  const current = await expiryOf(who.storage, ref.id);
  if (current === undefined || pastExpiry(current)) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory (or it expired)."));
  return { expiresAt: current.expiresAt, loaded: await store.load(ref) };
}

/** @type {Hono<import("../context.js").Env>} */
export const tasks = new Hono();

tasks.put(T, taskRole("save", "writer"), auditRefusals, async (c) => {
  const { caller: who, memory: { ref, store }, hub } = c.var;
  const { id } = ref;
  const raw = c.req.query("ttl");
  const ttl = raw === undefined ? hub.config.taskTtlSeconds : /^[0-9]{1,8}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(ttl >= 1 && ttl <= TTL_MAX_SECONDS)) throw new HubProblem(400, "request/invalid-query", `?ttl must be a whole number of seconds from 1 to ${TTL_MAX_SECONDS}.`);
  const base = ifMatch(c);
  const allowErase = flag(c, "allowErase");
  const content = await readDocument(c.req.raw, hub.config);
  const outcome = await exclusive(who.storage, { scope: "task", id }, async () => {
    const current = await expiryOf(who.storage, id);
    // Expired: gone, whether or not the sweep came by yet.
    if (current !== undefined && pastExpiry(current)) await expireTask(who.storage, id, { auditMax: hub.config.auditMax, by: "save" });
    const out = await store.save(ref, content, { baseRevision: base, actor: who.member, allowErase, onConflict: "reject" });
    if (out.status === "saved" || out.status === "no_op") {
      await setExpiry(who.storage, id, ttl);
      await hub.runtime.scheduleSweep?.({ team: who.team, storage: who.storage });
    }
    return out;
  });
  if (outcome.changed) await hub.runtime.changed?.({ storage: who.storage, store, ref, tag: `task/${id}` });
  // Counted as any save; not listed in the directory; its event was sent above.
  return answerSave(c, outcome, { ref: null, store, base, merging: false });
});

tasks.get(T, taskRole("read", "reader"), async (c) => {
  const { loaded, expiresAt } = await live(c);
  await c.var.caller.audit({ status: 200, revision: loaded.revision });
  return c.json({ ...loaded, expiresAt }, 200, { etag: etag(loaded.revision) });
});
// What the MCP tools read (as `GET {m}/prompt`, `/recall`, `/history`).
tasks.get(`${T}/prompt`, taskRole("prompt", "reader"), async (c) => {
  const { caller: who, memory: { ref } } = c.var;
  const { loaded } = await live(c);
  const recalled = await recallFor(c, who, ref, loaded.content, { optional: true });
  await who.audit({ status: 200, revision: loaded.revision });
  const block = injectionBlock(recalled?.content ?? loaded.content, { scope: "team", userName: null, recalled: recalled?.totals ?? null });
  return c.body(block, 200, { "content-type": "text/plain; charset=utf-8", etag: etag(loaded.revision) });
});
tasks.get(`${T}/recall`, taskRole("recall", "reader"), async (c) => {
  const { caller: who, memory: { ref } } = c.var;
  const { loaded } = await live(c);
  const recalled = await recallFor(c, who, ref, loaded.content);
  await who.audit({ status: 200, revision: loaded.revision });
  return c.json({ revision: loaded.revision, ...recalled, omitted: omittedAnswer(c, recalled.omitted) }, 200, { etag: etag(loaded.revision) });
});
tasks.get(`${T}/events`, taskRole("events", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const { loaded } = await live(c);
  requireUpgrade(c);
  const protocol = offeredProtocols(c).includes("memdoc") ? "memdoc" : null;
  const response = await subscribeWithin(c, { store, ref, after: loaded.revision, protocol, tag: `task/${ref.id}`, head: taskHeadKey(ref.id) });
  await who.audit({ status: 101, revision: loaded.revision });
  return response;
});
tasks.get(`${T}/history`, taskRole("history", "reader"), async (c) => {
  const { ref, store } = c.var.memory;
  await live(c);
  return c.json({ entries: await store.history(ref) });
});
// Another method: 405, to a caller who may read the team's memories.
for (const [path, methods] of [[T, "GET, PUT"], [`${T}/prompt`, "GET"], [`${T}/recall`, "GET"], [`${T}/history`, "GET"], [`${T}/events`, "GET"]]) {
  tasks.all(path, taskRole("read", "reader"), () => {
    throw new HubProblem(405, "http/method-not-allowed", `Use ${methods}.`, { headers: { allow: methods } });
  });
}
