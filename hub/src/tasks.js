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
// data/task.js's. The routes are routes/tasks.js's.
import { appendAudit } from "./audit.js";
import { memoryStore, purgeTask, TASK_PREFIX } from "./data/memories.js";
import { exclusive } from "./data/memory.js";
import { anyExpiry, deleteExpiry, listExpiries, readExpiry, writeExpiry } from "./data/task.js";

export const TTL_MAX_SECONDS = 30 * 86_400;
/** The expiry of a task memory, `{ expiresAt, ttlSeconds }`, or undefined. */
export const expiryOf = readExpiry;
/** Whether an expiry has passed at `now`. */
export const pastExpiry = (record, now = Date.now()) => Date.parse(record.expiresAt) <= now;
/** The engine's ref of a task memory: the team rules apply. */
export const engineRef = (id) => ({ scope: "team", id });

const stores = new WeakMap();
export function taskStore(storage, config) {
  let store = stores.get(storage);
  if (!store) stores.set(storage, (store = memoryStore(storage, { historyDepth: config.historyDepth, keyPrefix: TASK_PREFIX })));
  return store;
}

/** The team's task memories not expired at `now`: `[{scope: "task", id, expiresAt}]`. */
export async function liveTasks(storage, now = Date.now()) {
  return (await listExpiries(storage)).filter((e) => !pastExpiry(e, now)).map((e) => ({ scope: "task", id: e.id, expiresAt: e.expiresAt }));
}

/** Set a task memory's expiry, `ttl` seconds from now. */
export async function setExpiry(storage, id, ttl) {
  await writeExpiry(storage, id, { expiresAt: new Date(Date.now() + ttl * 1000).toISOString(), ttlSeconds: ttl });
}

/** Whether the team has task memories (for the schedule of sweeps). */
export const hasTasks = anyExpiry;

/** Delete a task memory's head, the snapshots it names, and its expiry. */
export async function removeTask(storage, id) {
  await purgeTask(storage, id);
  await deleteExpiry(storage, id);
}

/** Remove an expired task memory, audited as `expire` (by the sweep, or by the save that starts it again). */
export async function expireTask(storage, id, { auditMax, by }) {
  await removeTask(storage, id);
  await appendAudit(storage, { member: null, keyId: null, action: "expire", target: `task/${id}`, revision: null, status: 204, by }, auditMax);
}

/**
 * The scheduled removal of expired task memories, each audited as `expire`.
 * @returns {Promise<number>} the task memories removed
 */
export async function sweepTasks({ storage, auditMax, expired, now = Date.now() }) {
  let removed = 0;
  for (const { id } of await listExpiries(storage)) {
    await exclusive(storage, { scope: "task", id }, async () => {
      const current = await expiryOf(storage, id);
      if (current === undefined || !pastExpiry(current, now)) return;
      await expireTask(storage, id, { auditMax, by: "sweep" });
      removed += 1;
      await expired?.({ storage, tag: `task/${id}` });
    });
  }
  return removed;
}
