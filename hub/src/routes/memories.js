// A memory, `/v1/teams/{team}/memories/{scope}/{id}` (docs/HUB.md,
// "Memories"): read it (with If-None-Match), save it (If-Match, merging a
// stale edit when asked), check a draft, its history, a kept revision, a
// revert to one, and its prompt block. Who may see which memory is
// access.js's; deleting and restoring are deletion.js's.
import { Hono } from "hono";
import { validate } from "memdoc";

import { MEMORY_PATH as M, auditRefusals, memoryRole } from "../access.js";
import { allow } from "../allow.js";
import { readDocument, readJson } from "../body.js";
import { etag, holds, ifMatch } from "../etag.js";
import { HubProblem } from "../problem.js";
import { flag } from "../query.js";
import { settleSave } from "../saved.js";
import { memoryHistory, memoryPrompt, readMemory, saveMemory, writing } from "../services/memories.js";

/** @type {Hono<import("../context.js").Env>} */
export const memories = new Hono();

memories.get(M, memoryRole("read", "reader"), async (c) => {
  const { loaded, fresh } = await readMemory(c.var.caller, c.var.memory, { held: (revision) => holds(c, revision) });
  if (fresh) return c.body(null, 304, { etag: etag(loaded.revision) });
  return c.json(loaded, 200, { etag: etag(loaded.revision) });
});

memories.put(M, memoryRole("save", "writer"), auditRefusals, async (c) => {
  const { caller: who, memory, hub } = c.var;
  const base = ifMatch(c);
  const merging = c.req.query("onConflict") === "merge";
  if (!merging && c.req.query("onConflict") !== undefined && c.req.query("onConflict") !== "reject") {
    throw new HubProblem(400, "request/invalid-query", "?onConflict must be merge or reject.");
  }
  const allowErase = flag(c, "allowErase");
  const content = await readDocument(c.req.raw, hub.config);
  const body = await saveMemory(hub, who, memory, content, { base, merging, allowErase });
  return c.json(body, 200, { etag: etag(body.revision) });
});

memories.post(`${M}/validate`, memoryRole("validate", "reader"), async (c) => {
  const { memory: { ref, store }, hub } = c.var;
  const content = await readDocument(c.req.raw, hub.config);
  const loaded = await store.load(ref);
  return c.json(validate(content, { scope: ref.scope, previous: loaded.revision === 0 ? null : loaded.content }), 200, { etag: etag(loaded.revision) });
});
memories.all(`${M}/validate`, allow("POST"));

memories.get(`${M}/history`, memoryRole("history", "reader"), async (c) => c.json({ entries: await memoryHistory(c.var.caller, c.var.memory) }));
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
  const saved = await settleSave(hub, who, outcome, { ref, store, base, merging: false });
  return c.json(saved, 200, { etag: etag(saved.revision) });
});
memories.all(`${M}/revert`, allow("POST"));

memories.get(`${M}/prompt`, memoryRole("prompt", "reader"), async (c) => {
  const { loaded, block } = await memoryPrompt(c.var.hub, c.var.caller, c.var.memory, c.req.query());
  return c.body(block, 200, { "content-type": "text/plain; charset=utf-8", etag: etag(loaded.revision) });
});
memories.all(`${M}/prompt`, allow("GET"));

// After every route of the memory itself (deletion.js's DELETE is mounted before).
memories.all(M, allow("GET, PUT, DELETE"));
