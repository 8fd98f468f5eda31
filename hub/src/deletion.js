// Deleting and restoring (docs/HUB.md, "Delete and restore").
//
// A deleted memory keeps its content and history where they are (the
// memories' host) and gets a marker, ["deleted", scope, id] in the team's
// storage, `{scope, id, revision, deletedAt, deletedBy, purgeAfter}`; while
// the marker is there every memory route answers 404 (a save 409
// `memory/deleted`) and the team directory does not list it. Restoring
// removes the marker; purging (at once with ?purge=true, or by the scheduled
// sweep after MEMDOC_HUB_DELETED_RETENTION_DAYS) deletes the head record and
// the snapshots it names, then the marker.
//
// A save, a delete, a restore and a purge of one memory run one at a time
// (`exclusive`): the hub serves a team from one place (its Durable Object; the
// one Deno process of its KV file), so a lock in memory is enough, and a
// delete never overtakes a save it raced with.
//
// `DELETE /v1/teams/{team}` (operator) removes a team and everything in it.
import { appendAudit } from "./audit.js";
import { recordMemory } from "./directory.js";
import { TEAM_ID } from "./keys.js";
import { HubProblem } from "./problem.js";

const DAY_MS = 86_400_000;
const marker = (ref) => ["deleted", ref.scope, ref.id];
const tagOf = (ref) => `${ref.scope}/${ref.id}`;

const locks = new WeakMap();

/** Run `task` when no other task of the same memory runs (in this process). */
export function exclusive(storage, ref, task) {
  let byMemory = locks.get(storage);
  if (!byMemory) locks.set(storage, (byMemory = new Map()));
  const tag = tagOf(ref);
  const next = (byMemory.get(tag) ?? Promise.resolve()).then(task);
  const settled = next.catch(() => {});
  byMemory.set(tag, settled);
  // The map keeps only the memories with a task running or queued.
  settled.then(() => byMemory.get(tag) === settled && byMemory.delete(tag));
  return next;
}

/** The deletion marker of a memory, or undefined when it is not deleted. */
export const deletedMarker = (storage, ref) => storage.get(marker(ref));

/** The problem of a request for a deleted memory: a save is told why, anything else finds nothing. */
export function deletedProblem(action) {
  if (action === "save" || action === "revert") {
    return new HubProblem(409, "memory/deleted", "This memory was deleted: an admin (or, for a user memory, its member) can restore it with POST {m}/restore.");
  }
  return new HubProblem(404, "memory/not-found", "There is no such memory.");
}

/**
 * Delete the head record under `head` in the memories' host and the
 * snapshots it names (head first: no head ever names a missing snapshot).
 */
export async function deleteStored(storage, head) {
  const found = await storage.host.get(head);
  await storage.host.delete(head);
  if (found) {
    for (const s of JSON.parse(found.value).snapshots ?? []) await storage.host.delete(s.key);
  }
}

/** Delete a memory's content and history, then its marker and directory entry. */
async function purgeMemory(storage, ref) {
  await deleteStored(storage, `memdoc/${ref.scope}/${ref.id}`);
  await storage.deleteMany([marker(ref), ["memory", ref.scope, ref.id]]);
}

/**
 * The scheduled purge: every deleted memory past its `purgeAfter`, audited
 * as `purge` by the sweep.
 * @returns {Promise<number>} the memories purged
 */
export async function purgeExpired({ storage, auditMax, now = Date.now() }) {
  let purged = 0;
  for (const { value } of await storage.list(["deleted"])) {
    if (Date.parse(value.purgeAfter) > now) continue;
    const ref = { scope: value.scope, id: value.id };
    await exclusive(storage, ref, async () => {
      const current = await deletedMarker(storage, ref);
      if (current === undefined || Date.parse(current.purgeAfter) > now) return;
      await purgeMemory(storage, ref);
      purged += 1;
      await appendAudit(storage, { member: null, keyId: null, action: "purge", target: tagOf(ref), revision: current.revision, status: 204, by: "sweep" }, auditMax);
    });
  }
  return purged;
}

/** Whether the team has deleted memories waiting for their purge. */
export async function hasDeleted(storage) {
  return (await storage.list(["deleted"], { limit: 1 })).length > 0;
}

/**
 * The routes of this file, on the hub application.
 * @param {import("hono").Hono} app
 * @param {{ M: string, config: any, runtime: any, teamCaller: Function, memoryCaller: Function, requireOperator: Function, ifMatch: Function, flag: Function, allow: Function }} hub
 */
export function mountDeletion(app, { M, config, runtime, teamCaller, memoryCaller, requireOperator, ifMatch, flag, allow }) {
  /** Team memories: admin; a user memory: its member (memoryCaller shows it to no one else). */
  const roleFor = (c) => (c.req.param("scope") === "team" ? "admin" : "reader");

  /** `task` with the refusal of a HubProblem audited. */
  async function audited(who, task) {
    try {
      return await task();
    } catch (error) {
      if (error instanceof HubProblem && error.status !== 429) await who.audit({ status: error.status });
      throw error;
    }
  }

  app.delete(M, async (c) => {
    const { who, ref, store } = await memoryCaller(c, c.req.query("purge") === "true" ? "purge" : "delete", roleFor(c), { deleted: true });
    return audited(who, () => {
      const purge = flag(c, "purge");
      return exclusive(who.storage, ref, async () => {
        const base = ifMatch(c);
        const deleted = await deletedMarker(who.storage, ref);
        // A deleted memory is at the revision it was deleted at.
        const revision = deleted !== undefined ? (purge ? deleted.revision : 0) : (await store.load(ref)).revision;
        if (revision === 0) throw new HubProblem(404, "memory/not-found", "There is no such memory.");
        if (base !== revision) {
          throw new HubProblem(412, "http/precondition-failed", `The memory is at revision ${revision}, not ${base}; re-read it before deleting it.`, {
            headers: { etag: `"${revision}"` },
            extra: { currentRevision: revision },
          });
        }
        if (purge) {
          await purgeMemory(who.storage, ref);
        } else {
          const now = Date.now();
          const record = { ...ref, revision, deletedAt: new Date(now).toISOString(), deletedBy: who.member, purgeAfter: new Date(now + config.deletedRetentionDays * DAY_MS).toISOString() };
          await who.storage.put(marker(ref), record);
          await who.storage.delete(["memory", ref.scope, ref.id]);
          await runtime.scheduleSweep?.({ team: who.team, storage: who.storage });
        }
        await who.audit({ status: 204, revision });
        return c.body(null, 204);
      });
    });
  });

  app.post(`${M}/restore`, async (c) => {
    const { who, ref, store } = await memoryCaller(c, "restore", roleFor(c), { deleted: true });
    return audited(who, () =>
      exclusive(who.storage, ref, async () => {
        if ((await deletedMarker(who.storage, ref)) === undefined) {
          if ((await store.load(ref)).revision > 0) throw new HubProblem(409, "memory/not-deleted", "This memory is not deleted.");
          throw new HubProblem(404, "memory/not-found", "There is no such deleted memory (never saved, or purged).");
        }
        await recordMemory(who.storage, ref);
        await who.storage.delete(marker(ref));
        const loaded = await store.load(ref);
        await who.audit({ status: 200, revision: loaded.revision });
        return c.json({ revision: loaded.revision, content: loaded.content }, 200, { etag: `"${loaded.revision}"` });
      }),
    );
  });
  allow(`${M}/restore`, "POST");

  app.get("/v1/teams/:team/deleted", async (c) => {
    const who = await teamCaller(c, "deleted", "reader");
    const team = who.role === "admin" ? await who.storage.list(["deleted", "team"]) : [];
    const own = await deletedMarker(who.storage, { scope: "user", id: who.member });
    const memories = [...(own === undefined ? [] : [own]), ...team.map((e) => e.value)].map(({ scope, id, revision, deletedAt, deletedBy, purgeAfter }) => ({ scope, id, revision, deletedAt, deletedBy, purgeAfter }));
    return c.json({ memories });
  });
  allow("/v1/teams/:team/deleted", "GET");

  app.delete("/v1/teams/:team", async (c) => {
    await requireOperator(c);
    const team = c.req.param("team");
    const storage = TEAM_ID.test(team) ? runtime.team(team) : null;
    if (!storage || (await storage.get(["team"])) === undefined) throw new HubProblem(404, "team/not-found", "There is no such team.");
    // The record of the team goes with the rest, so the id can be created again.
    await storage.deleteAll();
    await runtime.teamDeleted?.({ team, storage });
    return c.body(null, 204);
  });
  allow("/v1/teams/:team", "DELETE");
}
