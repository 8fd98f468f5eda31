// Deleting and restoring a memory (docs/HUB.md, "Delete and restore";
// deletion.js): `DELETE {m}` (?purge=true: at once, for good), `POST
// {m}/restore`, and `GET /v1/teams/{team}/deleted`, the deleted memories
// the key could restore. A team memory's are its admins', a user memory's
// its member's (access.js shows it to no one else).
import { Hono } from "hono";

import { MEMORY_PATH as M, auditRefusals, memoryRole, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { listMarkers } from "../data/deleted.js";
import { deletedMarker, exclusive, markDeleted, purgeMemory, storedRevision, unmarkDeleted } from "../deletion.js";
import { etag, ifMatch } from "../etag.js";
import { HubProblem } from "../problem.js";
import { flag } from "../query.js";

/** Team memories: admin; a user memory: its member. */
const roleFor = (c) => (c.req.param("scope") === "team" ? "admin" : "reader");

/** A live memory's revision; for a purge, also of a memory the store cannot read (its raw head's). */
async function currentRevision(storage, store, ref, purge) {
  try {
    return (await store.load(ref)).revision;
  } catch (error) {
    if (!purge || !String(error?.code).startsWith("store/")) throw error;
    return storedRevision(storage, ref);
  }
}

/** @type {Hono<import("../context.js").Env>} */
export const deletion = new Hono();

deletion.delete(M, memoryRole((c) => (c.req.query("purge") === "true" ? "purge" : "delete"), roleFor, { deleted: true }), auditRefusals, async (c) => {
  const { caller: who, memory: { ref, store }, hub } = c.var;
  const purge = flag(c, "purge");
  return exclusive(who.storage, ref, async () => {
    const base = ifMatch(c);
    const deleted = await deletedMarker(who.storage, ref);
    // A deleted memory is at the revision it was deleted at.
    const revision = deleted !== undefined ? (purge ? deleted.revision : 0) : await currentRevision(who.storage, store, ref, purge);
    if (revision === 0) throw new HubProblem(404, "memory/not-found", "There is no such memory.");
    if (base !== revision) {
      throw new HubProblem(412, "http/precondition-failed", `The memory is at revision ${revision}, not ${base}; re-read it before deleting it.`, {
        headers: { etag: etag(revision) },
        extra: { currentRevision: revision },
      });
    }
    if (purge) {
      await purgeMemory(who.storage, ref);
    } else {
      await markDeleted(who.storage, ref, { revision, member: who.member, retentionDays: hub.config.deletedRetentionDays });
      await hub.runtime.scheduleSweep?.({ team: who.team, storage: who.storage });
    }
    await who.audit({ status: 204, revision });
    return c.body(null, 204);
  });
});

deletion.post(`${M}/restore`, memoryRole("restore", roleFor, { deleted: true }), auditRefusals, async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  return exclusive(who.storage, ref, async () => {
    if ((await deletedMarker(who.storage, ref)) === undefined) {
      if ((await store.load(ref)).revision > 0) throw new HubProblem(409, "memory/not-deleted", "This memory is not deleted.");
      throw new HubProblem(404, "memory/not-found", "There is no such deleted memory (never saved, or purged).");
    }
    await unmarkDeleted(who.storage, ref);
    const loaded = await store.load(ref);
    await who.audit({ status: 200, revision: loaded.revision });
    return c.json({ revision: loaded.revision, content: loaded.content }, 200, { etag: etag(loaded.revision) });
  });
});
deletion.all(`${M}/restore`, allow("POST"));

deletion.get("/deleted", teamRole("deleted", "reader"), async (c) => {
  const who = c.var.caller;
  const team = who.role === "admin" ? await listMarkers(who.storage, "team") : [];
  const own = await deletedMarker(who.storage, { scope: "user", id: who.member });
  const memories = [...(own === undefined ? [] : [own]), ...team].map(({ scope, id, revision, deletedAt, deletedBy, purgeAfter }) => ({ scope, id, revision, deletedAt, deletedBy, purgeAfter }));
  return c.json({ memories });
});
deletion.all("/deleted", allow("GET"));
