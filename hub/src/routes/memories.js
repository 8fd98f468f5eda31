// A memory, `/v1/teams/{team}/memories/{scope}/{id}` (docs/HUB.md,
// "Memories"): read it (with If-None-Match), save it (If-Match, merging a
// stale edit when asked), check a draft, its history, a kept revision, a
// revert to one, and its prompt block. Who may see which memory is
// access.js's; deleting and restoring are deletion.js's.
import { Hono } from "hono";
import { injectionBlock, validate } from "memdoc";

import { MEMORY_PATH as M, auditRefusals, memoryRole } from "../access.js";
import { allow } from "../allow.js";
import { readDocument, readJson } from "../body.js";
import { deletedMarker, deletedProblem, exclusive } from "../deletion.js";
import { etag, holds, ifMatch } from "../etag.js";
import { recallFor } from "../lifecycle.js";
import { HubProblem } from "../problem.js";
import { flag } from "../query.js";
import { answerSave } from "../saved.js";

/** A write of a memory, one at a time with its delete, restore and purge (deletion.js). */
function writing(storage, ref, action, task) {
  return exclusive(storage, ref, async () => {
    if ((await deletedMarker(storage, ref)) !== undefined) throw deletedProblem(action);
    return task();
  });
}

/** @type {Hono<import("../context.js").Env>} */
export const memories = new Hono();

memories.get(M, memoryRole("read", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const loaded = await store.load(ref);
  const fresh = holds(c, loaded.revision);
  await who.audit({ status: fresh ? 304 : 200, revision: loaded.revision });
  if (fresh) return c.body(null, 304, { etag: etag(loaded.revision) });
  return c.json(loaded, 200, { etag: etag(loaded.revision) });
});

memories.put(M, memoryRole("save", "writer"), auditRefusals, async (c) => {
  const { caller: who, memory: { ref, store }, hub } = c.var;
  const base = ifMatch(c);
  const merging = c.req.query("onConflict") === "merge";
  if (!merging && c.req.query("onConflict") !== undefined && c.req.query("onConflict") !== "reject") {
    throw new HubProblem(400, "request/invalid-query", "?onConflict must be merge or reject.");
  }
  const allowErase = flag(c, "allowErase");
  const content = await readDocument(c.req.raw, hub.config);
  const options = { baseRevision: base, actor: who.member, allowErase, onConflict: merging ? "merge" : "reject" };
  // The store merges a stale edit, and merges again when a clean merge
  // loses the race to another save (MERGE_ATTEMPTS, docs/API.md).
  const outcome = await writing(who.storage, ref, "save", () => store.save(ref, content, options));
  return answerSave(c, outcome, { ref, store, base, merging });
});

memories.post(`${M}/validate`, memoryRole("validate", "reader"), async (c) => {
  const { memory: { ref, store }, hub } = c.var;
  const content = await readDocument(c.req.raw, hub.config);
  const loaded = await store.load(ref);
  return c.json(validate(content, { scope: ref.scope, previous: loaded.revision === 0 ? null : loaded.content }), 200, { etag: etag(loaded.revision) });
});
memories.all(`${M}/validate`, allow("POST"));

memories.get(`${M}/history`, memoryRole("history", "reader"), async (c) => {
  const { ref, store } = c.var.memory;
  return c.json({ entries: await store.history(ref) });
});
memories.all(`${M}/history`, allow("GET"));

memories.get(`${M}/revisions/:n`, memoryRole("revision", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const raw = c.req.param("n");
  const n = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : null;
  const content = n === null ? null : await store.revision(ref, n);
  if (content === null) throw await who.refuse(new HubProblem(404, "revision/not-found", "That revision is not kept (or never existed)."));
  return c.json({ revision: n, content }, 200, { etag: etag(n) });
});
memories.all(`${M}/revisions/:n`, allow("GET"));

memories.post(`${M}/revert`, memoryRole("revert", "writer"), auditRefusals, async (c) => {
  const { caller: who, memory: { ref, store }, hub } = c.var;
  const base = ifMatch(c);
  const body = await readJson(c.req.raw, hub.config);
  if (!Number.isInteger(body.revision) || body.revision < 1) throw new HubProblem(400, "request/invalid-body", "`revision` must be a whole number >= 1.");
  let outcome;
  try {
    outcome = await writing(who.storage, ref, "revert", () => store.revert(ref, body.revision, { baseRevision: base, actor: who.member, allowErase: flag(c, "allowErase") }));
  } catch (error) {
    if (error?.code === "store/revision-unavailable" || error?.code === "store/invalid-revision") throw new HubProblem(404, "revision/not-found", "That revision is not kept (or never existed).");
    throw error;
  }
  return answerSave(c, outcome, { ref, store, base, merging: false });
});
memories.all(`${M}/revert`, allow("POST"));

memories.get(`${M}/prompt`, memoryRole("prompt", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const loaded = await store.load(ref);
  const userName = c.req.query("userName");
  if (userName !== undefined && userName.length > 200) throw new HubProblem(400, "request/invalid-query", "?userName is at most 200 characters.");
  // With ?q= or ?budget=, the recalled part of the memory.
  const recalled = await recallFor(c, who, ref, loaded.content, { optional: true });
  await who.audit({ status: 200, revision: loaded.revision });
  return c.body(injectionBlock(recalled?.content ?? loaded.content, { scope: ref.scope, userName: userName ?? null, recalled: recalled?.totals ?? null }), 200, {
    "content-type": "text/plain; charset=utf-8",
    etag: etag(loaded.revision),
  });
});
memories.all(`${M}/prompt`, allow("GET"));

// After every route of the memory itself (deletion.js's DELETE is mounted before).
memories.all(M, allow("GET, PUT, DELETE"));
