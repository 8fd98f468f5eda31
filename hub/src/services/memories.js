// The operations on one memory that the routes (routes/memories.js,
// routes/tasks.js, routes/recall.js) and the MCP tools (mcp/tools.js) both
// call: read, save, history, prompt block and recall. Each takes the hub,
// the caller (its audit entries naming the route's or the tool's action)
// and the memory access.js let it reach, and audits, counts, bounds and
// refuses as docs/HUB.md says, so that a route and a tool cannot differ.
// What is HTTP's (tags, If-None-Match, bodies, query strings) stays in
// the routes; `params` is the request's query parameters as a record (a
// route's `c.req.query()`, a tool's arguments as the route would get them).
import { injectionBlock } from "memdoc";

import { deletedMarker, deletedProblem, exclusive } from "../deletion.js";
import { recallFor } from "../lifecycle.js";
import { HubProblem } from "../problem.js";
import { omittedAnswer } from "../recall-answer.js";
import { settleSave } from "../saved.js";
import { expireTask, expiryOf, pastExpiry, setExpiry } from "../tasks.js";
import { trace, wantsTrace } from "../trace.js";

/** The longest `userName` of a prompt block. */
const USER_NAME_MAX = 200;

/**
 * A write of a team or user memory, one at a time with its delete,
 * restore and purge (deletion.js); 409 once it is deleted.
 */
export function writing(storage, ref, action, task) {
  return exclusive(storage, ref, async () => {
    if ((await deletedMarker(storage, ref)) !== undefined) throw deletedProblem(action);
    return task();
  });
}

/** A task memory's expiry while it has not expired (404, audited, after); undefined for another memory. */
async function liveExpiry(who, memory) {
  if (!memory.task) return undefined;
  const current = await expiryOf(who.storage, memory.ref.id);
  if (current === undefined || pastExpiry(current)) throw await who.refuse(new HubProblem(404, "memory/not-found", "There is no such memory (or it expired)."));
  return current.expiresAt;
}

/**
 * The memory as stored (a task memory's with `expiresAt`, and 404 once it
 * expired), not audited (the events route audits its upgrade).
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 */
export async function loadMemory(who, memory) {
  const expiresAt = await liveExpiry(who, memory);
  const loaded = await memory.store.load(memory.ref);
  return expiresAt === undefined ? loaded : { ...loaded, expiresAt };
}

/**
 * The memory as `loadMemory` reads it, audited; `fresh`
 * when `held(revision)` says the client holds it already (audited 304).
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 * @param {{ held?: (revision: number) => boolean }} [o]
 */
export async function readMemory(who, memory, { held = () => false } = {}) {
  const loaded = await loadMemory(who, memory);
  const fresh = held(loaded.revision);
  await who.audit({ status: fresh ? 304 : 200, revision: loaded.revision });
  return { loaded, fresh };
}

/**
 * Save `content` over revision `base` (saved.js's answer body, or its
 * refusal thrown). A task memory's save also sets its expiry, `ttl`
 * seconds from now (default the hub's), and first removes it when it has
 * expired.
 * @param {import("../context.js").Hub} hub
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 * @param {string} content
 * @param {{ base: number, merging?: boolean, allowErase?: boolean, ttl?: number }} o
 */
export async function saveMemory(hub, who, { ref, store, task }, content, { base, merging = false, allowErase = false, ttl = hub.config.taskTtlSeconds }) {
  if (!task) {
    const options = { baseRevision: base, actor: who.member, allowErase, onConflict: merging ? "merge" : "reject" };
    // The store merges a stale edit, and merges again when a clean merge
    // loses the race to another save (MERGE_ATTEMPTS, docs/API.md).
    const outcome = await writing(who.storage, ref, "save", () => store.save(ref, content, options));
    return settleSave(hub, who, outcome, { ref, store, base, merging });
  }
  const { id } = ref;
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
  return settleSave(hub, who, outcome, { ref: null, store, base, merging: false });
}

/**
 * The kept revisions, newest first.
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 */
export async function memoryHistory(who, memory) {
  await liveExpiry(who, memory);
  return memory.store.history(memory.ref);
}

/**
 * The memory's prompt block (with `params.q` or `params.budget`, of its
 * recalled part; `params.userName` names a user memory's member), audited.
 * @param {import("../context.js").Hub} hub
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 * @param {Record<string, string>} params
 * @returns {Promise<{ loaded: import("memdoc").Loaded, block: string }>}
 */
export async function memoryPrompt(hub, who, memory, params) {
  const { ref, store, task } = memory;
  await liveExpiry(who, memory);
  const loaded = await store.load(ref);
  // A task memory's block is a team memory's, for no one in particular.
  const userName = task ? null : (params.userName ?? null);
  if (userName !== null && userName.length > USER_NAME_MAX) throw new HubProblem(400, "request/invalid-query", `?userName is at most ${USER_NAME_MAX} characters.`);
  const recalled = await recallFor(hub, who, ref, loaded.content, params, { optional: true });
  await who.audit({ status: 200, revision: loaded.revision });
  const block = injectionBlock(recalled?.content ?? loaded.content, { scope: task ? "team" : ref.scope, userName, recalled: recalled?.totals ?? null });
  return { loaded, block };
}

/**
 * The recall of the memory for `params` (`q`, `budget`, `mode`,
 * `omittedText`, `trace`), as `GET {m}/recall` answers it, audited.
 * @param {import("../context.js").Hub} hub
 * @param {import("../context.js").Caller} who
 * @param {import("../context.js").Memory} memory
 * @param {Record<string, string>} params
 */
export async function recallMemory(hub, who, memory, params) {
  const traced = wantsTrace(params);
  await liveExpiry(who, memory);
  const loaded = await memory.store.load(memory.ref);
  const recalled = await recallFor(hub, who, memory.ref, loaded.content, params);
  await who.audit({ status: 200, revision: loaded.revision });
  return { revision: loaded.revision, ...recalled, omitted: omittedAnswer(params, recalled.omitted), ...(traced ? { trace: trace(recalled.omitted) } : {}) };
}
