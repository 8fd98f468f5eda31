// Short-term task memories (docs/HUB.md, "Task memories"): a third scope,
// `task`, of memories that expire by themselves. `PUT
// /v1/teams/{team}/memories/task/{id}?ttl=SECONDS` (writers) saves one by the
// team rules, as a save of a team memory, and sets its expiry, counted from
// that write; `GET` shows `expiresAt`. An expired task memory answers 404 at
// once and is removed, with its history, by the scheduled sweep (no
// archive: it is rebuildable by design), or by the next save of its id.
//
// Task memories live in the team's memory host under their own key prefix
// (TASK_PREFIX), as team-scope memories of the engine, so they can never be
// confused with a team memory of the same id; the expiry of each is
// ["task", id] in the team's storage.
import { MemoryStore, injectionBlock } from "memdoc";

import { appendAudit } from "./audit.js";
import { readDocument } from "./body.js";
import { deleteStored, exclusive } from "./deletion.js";
import { MEMORY_ID } from "./ids.js";
import { recallFor } from "./lifecycle.js";
import { HubProblem } from "./problem.js";

const TASK_PREFIX = "memdoc-task";
export const TTL_MAX_SECONDS = 30 * 86_400;
const expiry = (id) => ["task", id];
/** The engine's ref of a task memory: the team rules apply. */
const engineRef = (id) => ({ scope: "team", id });

const stores = new WeakMap();
function taskStore(storage, config) {
  let store = stores.get(storage);
  if (!store) stores.set(storage, (store = new MemoryStore(storage.host, { historyDepth: config.historyDepth, keyPrefix: TASK_PREFIX })));
  return store;
}

/** The team's task memories not expired at `now`: `[{scope: "task", id, expiresAt}]`. */
export async function liveTasks(storage, now = Date.now()) {
  return (await storage.list(["task"])).filter((e) => Date.parse(e.value.expiresAt) > now).map((e) => ({ scope: "task", id: e.key[1], expiresAt: e.value.expiresAt }));
}

/** Whether the team has task memories (for the schedule of sweeps). */
export async function hasTasks(storage) {
  return (await storage.list(["task"], { limit: 1 })).length > 0;
}

/** Delete a task memory's head, the snapshots it names, and its expiry. */
async function removeTask(storage, id) {
  await deleteStored(storage, `${TASK_PREFIX}/team/${id}`);
  await storage.delete(expiry(id));
}

/**
 * The scheduled removal of expired task memories, each audited as `expire`.
 * @returns {Promise<number>} the task memories removed
 */
export async function sweepTasks({ storage, auditMax, expired, now = Date.now() }) {
  let removed = 0;
  for (const { key } of await storage.list(["task"])) {
    const id = key[1];
    await exclusive(storage, { scope: "task", id }, async () => {
      const current = await storage.get(expiry(id));
      if (current === undefined || Date.parse(current.expiresAt) > now) return;
      await removeTask(storage, id);
      removed += 1;
      await appendAudit(storage, { member: null, keyId: null, action: "expire", target: `task/${id}`, revision: null, status: 204, by: "sweep" }, auditMax);
      await expired?.({ storage, tag: `task/${id}` });
    });
  }
  return removed;
}

/**
 * The routes of this file, on the hub application (before the routes of
 * `{m}`, which answer 404 for the scope `task`).
 * @param {import("hono").Hono} app
 * @param {{ config: any, runtime: any, teamCaller: Function, ifMatch: Function, flag: Function, saved: Function }} hub
 */
export function mountTasks(app, { config, runtime, teamCaller, ifMatch, flag, saved }) {
  const T = "/v1/teams/:team/memories/task/:id";

  /** The caller and the task memory's id: 404 for an id no memory can have. */
  async function taskCaller(c, action, need) {
    const id = c.req.param("id");
    const who = await teamCaller(c, action, need, `task/${id}`);
    if (!MEMORY_ID.test(id)) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory."));
    return { who, id, store: taskStore(who.storage, config) };
  }

  app.put(T, async (c) => {
    const { who, id, store } = await taskCaller(c, "save", "writer");
    try {
      const raw = c.req.query("ttl");
      const ttl = raw === undefined ? config.taskTtlSeconds : /^[0-9]{1,8}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!(ttl >= 1 && ttl <= TTL_MAX_SECONDS)) throw new HubProblem(400, "request/invalid-query", `?ttl must be a whole number of seconds from 1 to ${TTL_MAX_SECONDS}.`);
      const base = ifMatch(c);
      const allowErase = flag(c, "allowErase");
      const content = await readDocument(c.req.raw, config);
      const ref = engineRef(id);
      const outcome = await exclusive(who.storage, { scope: "task", id }, async () => {
        const current = await who.storage.get(expiry(id));
        // Expired: gone, whether or not the sweep came by yet.
        if (current !== undefined && Date.parse(current.expiresAt) <= Date.now()) await removeTask(who.storage, id);
        const out = await store.save(ref, content, { baseRevision: base, actor: who.member, allowErase, onConflict: "reject" });
        if (out.status === "saved" || out.status === "no_op") {
          await who.storage.put(expiry(id), { expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), ttlSeconds: ttl });
          await runtime.scheduleSweep?.({ team: who.team, storage: who.storage });
        }
        return out;
      });
      if (outcome.changed) await runtime.changed?.({ storage: who.storage, store, ref, tag: `task/${id}` });
      // Not listed in the directory; its event was sent above.
      return await saved(c, who, null, store, { ...outcome, changed: false }, base, false);
    } catch (error) {
      if (error instanceof HubProblem && error.status !== 429) await who.audit({ status: error.status });
      throw error;
    }
  });

  /** A read of a task memory not expired: the caller, its engine ref, expiry and content. */
  async function live(c, action) {
    const { who, id, store } = await taskCaller(c, action, "reader");
    const current = await who.storage.get(expiry(id));
    if (current === undefined || Date.parse(current.expiresAt) <= Date.now()) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory (or it expired)."));
    const ref = engineRef(id);
    return { who, ref, store, expiresAt: current.expiresAt, loaded: await store.load(ref) };
  }
  const etag = (loaded) => ({ etag: `"${loaded.revision}"` });

  app.get(T, async (c) => {
    const { who, loaded, expiresAt } = await live(c, "read");
    await who.audit({ status: 200, revision: loaded.revision });
    return c.json({ ...loaded, expiresAt }, 200, etag(loaded));
  });
  // What the MCP tools read (as `GET {m}/prompt`, `/recall`, `/history`).
  app.get(`${T}/prompt`, async (c) => {
    const { who, ref, loaded } = await live(c, "prompt");
    const recalled = await recallFor(c, who, ref, loaded.content, { optional: true });
    await who.audit({ status: 200, revision: loaded.revision });
    const block = injectionBlock(recalled?.content ?? loaded.content, { scope: "team", userName: null, recalled: recalled?.totals ?? null });
    return c.body(block, 200, { "content-type": "text/plain; charset=utf-8", ...etag(loaded) });
  });
  app.get(`${T}/recall`, async (c) => {
    const { who, ref, loaded } = await live(c, "recall");
    const recalled = await recallFor(c, who, ref, loaded.content);
    await who.audit({ status: 200, revision: loaded.revision });
    return c.json({ revision: loaded.revision, ...recalled }, 200, etag(loaded));
  });
  app.get(`${T}/events`, async (c) => {
    const { who, ref, store, loaded } = await live(c, "events");
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new HubProblem(426, "http/upgrade-required", "This is a WebSocket: send Upgrade: websocket.", { headers: { upgrade: "websocket" } });
    }
    await who.audit({ status: 101, revision: loaded.revision });
    const offered = (c.req.header("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
    const id = c.req.param("id");
    return runtime.subscribe({ request: c.req.raw, storage: who.storage, store, ref, after: loaded.revision, protocol: offered.includes("memdoc") ? "memdoc" : null, tag: `task/${id}`, head: `${TASK_PREFIX}/team/${id}` });
  });
  app.get(`${T}/history`, async (c) => {
    const { ref, store } = await live(c, "history");
    return c.json({ entries: await store.history(ref) });
  });
  for (const [path, methods] of [[T, "GET, PUT"], [`${T}/prompt`, "GET"], [`${T}/recall`, "GET"], [`${T}/history`, "GET"], [`${T}/events`, "GET"]]) {
    app.all(path, async (c) => {
      await taskCaller(c, "read", "reader");
      throw new HubProblem(405, "http/method-not-allowed", `Use ${methods}.`, { headers: { allow: methods } });
    });
  }
}
