// Recall and the lifecycle of team memories (docs/HUB.md, "Recall and
// lifecycle"): the recall a request asks for (routes/recall.js), and the
// sweep that applies a team's expiry policies (policies.js) to every team memory
// with `MemoryStore.sweep`, triggered by an admin (routes/lifecycle.js) or
// on a schedule (a Durable Object alarm on Workers, Deno.cron on Deno; see
// worker.js and deno.js). User memories are not swept: their member alone sees them.
//
// A sweep is idempotent: `MemoryStore.sweep` writes a revision only when
// an entry expired, replaces the head by compare-and-swap, and archives an
// entry once however many sweeps run; a sweep that expires nothing writes
// nothing, not even an audit entry.
import { hybridRecall } from "memdoc";

import { appendAudit } from "./audit.js";
import { deleteItemVectors, taskVectorCache } from "./data/vectors.js";
import { teamMemoryIds } from "./directory.js";
import { engineProblem, HubProblem } from "./problem.js";
import { queryOnce } from "./embedding.js";
import { readPolicies } from "./policies.js";
import { heldVectors, withItemVectors, withPreparedMemory } from "./prepared-memories.js";
import { queryVector, readItemVectors } from "./recall-vectors.js";
import { countRecalls } from "./stats.js";

/** The actor of scheduled sweeps in the memories' history. */
export const SWEEPER = "memdoc-sweeper";

/**
 * The engine's Recall of `content` for the request's `?q=` and `?budget=`
 * (`params`, the request's query parameters: a route's, or a tool's arguments);
 * with `optional`, null when the request has neither. A bad query is a
 * refusal (400, audited). With an embedder (the hub's) and a
 * query, recall by words and meaning (`hybridRecall`), unless
 * `?mode=lexical`: with the vectors the memory's records hold, never
 * embedding a team or user memory's items on the spot (those no record
 * holds yet are matched by words, said as `semantic.degraded:
 * "index/lagging"` with their number in `lag`, and the memory is queued for
 * its indexing); a task memory's, which
 * no save indexes, are embedded now. `today` (YYYY-MM-DD) is the date ages
 * count to (default: the memory's newest entry); `embedder` stands for the
 * hub's. The recall is counted in the team's stats, or, given `counted`, added
 * to it for the caller to count (`countRecalls`) with the others of its request.
 * Given `listed`, a team or user memory's `omitted` is only its first
 * `listed` items (`PreparedMemory`'s; `totals.omitted` counts them all);
 * with `scored`, a team or user memory's `selected` is read item by item
 * (`recallScored`'s `SelectedItems`).
 */
export async function recallFor(hub, who, ref, content, params, { optional = false, today, embedder: given, counted, listed, scored = false } = {}) {
  const { q, budget: rawBudget, mode } = params;
  if (optional && q === undefined && rawBudget === undefined) return null;
  if (q !== undefined && q.length > 2000) throw await who.refuse(new HubProblem(400, "request/invalid-query", "?q is at most 2000 characters."));
  if (rawBudget !== undefined && !/^[0-9]{1,9}$/.test(rawBudget)) throw await who.refuse(new HubProblem(400, "request/invalid-query", "?budget must be a whole number of code points."));
  if (mode !== undefined && mode !== "lexical" && mode !== "hybrid") throw await who.refuse(new HubProblem(400, "request/invalid-query", "?mode must be hybrid or lexical."));
  const embedder = mode === "lexical" || !q ? null : (given ?? hub.embedder);
  let recalled;
  const started = performance.now();
  try {
    const options = { scope: ref.scope, budget: rawBudget === undefined ? null : Number(rawBudget), ...(today ? { today } : {}) };
    const asked = { listed, scored };
    recalled = embedder ? await recallByMeaning(hub, who, ref, content, q, options, embedder, asked) : byWords(who, ref, content, q ?? "", options, asked);
  } catch (error) {
    const problem = engineProblem(error);
    throw problem instanceof HubProblem ? await who.refuse(problem) : problem;
  }
  const ms = performance.now() - started;
  const { metrics } = hub;
  metrics.add("memdoc_recalls_total");
  metrics.observe("memdoc_recall_duration_seconds", {}, ms / 1000);
  if (counted) counted.push({ recalled, ms });
  else await countRecalls(who.storage, [{ recalled, ms }]);
  return recalled;
}

/**
 * Recall by words and meaning over what the team has indexed (see
 * `recallFor`): hybridRecall's, with the item vectors of recall-vectors.js
 * held by the memory prepared for the team (prepared-memories.js).
 */
async function recallByMeaning(hub, who, ref, content, q, options, load, asked) {
  const { embedder } = await embedderOrFailure(queryOnce(load));
  if (ref.scope === "task") return hybridRecall(content, q, { ...options, embedder, cache: taskVectorCache(who.storage) });
  // As hybridRecall: by words alone, said, when the query or the items have no vectors.
  const unavailable = (error) => ({ ...byWords(who, ref, content, q, options, asked), semantic: { model: embedder.id, degraded: EMBEDDER_UNAVAILABLE, message: error?.message ?? String(error) } });
  let query;
  try {
    query = await queryVector(embedder, q);
  } catch (error) {
    return unavailable(error);
  }
  // The vectors the memory holds, else those read (and a memory let go meanwhile: read again).
  for (;;) {
    let missing = heldVectors(who.storage, ref, content, embedder.id, query.length);
    let read = null;
    if (missing === undefined) {
      try {
        read = await readItemVectors(who.storage, ref, embedder.id, query.length, content);
      } catch (error) {
        return unavailable(error);
      }
      missing = read.missing;
    }
    const found = withItemVectors(who.storage, ref, content, embedder.id, query.length, read, (memory, vectors) => recallWith(memory, q, options, embedder.id, query, vectors, asked));
    if (found === undefined) continue;
    const recalled = { ...found, semantic: { model: embedder.id, degraded: null } };
    if (missing === 0) return recalled;
    hub.indexing.add(who.storage, hub.storeOf(who.storage), ref);
    return { ...recalled, semantic: { ...recalled.semantic, degraded: INDEX_LAGGING, lag: missing } };
  }
}

/** The recall of `memory` with the query's vector and `vectors` (null: those it holds), as `asked`. */
function recallWith(memory, q, options, id, query, vectors, { listed, scored }) {
  if (vectors === null) return scored ? memory.recallScoredWithHeldVectors(q, options, query, listed) : memory.recallWithHeldVectors(q, options, query, listed);
  return scored ? memory.recallScoredWithVectors(q, options, id, query, vectors, listed) : memory.recallWithVectors(q, options, id, query, vectors, listed);
}

/** `recall(content, q, options)`, from the memory prepared for the team (prepared-memories.js), listing `asked.listed` omitted items, scored with `asked.scored`. */
function byWords(who, ref, content, q, options, { listed, scored }) {
  return withPreparedMemory(who.storage, ref, content, (memory) => (scored ? memory.recallScored(q, options, listed) : memory.recall(q, options, listed)));
}

/** The degradation of a recall by meaning whose embedder failed (hybridRecall's). */
const EMBEDDER_UNAVAILABLE = "embedder/unavailable";

/** The degradation of a recall by meaning some of whose items are not indexed yet. */
export const INDEX_LAGGING = "index/lagging";

/**
 * `{ embedder }` for hybridRecall; an embedder that cannot be loaded is one
 * that fails, so the result says `semantic.degraded`.
 */
async function embedderOrFailure(embedder) {
  try {
    return { embedder: await embedder() };
  } catch (error) {
    const message = `the embedder could not be loaded: ${error?.message ?? error}`;
    return { embedder: { id: "unavailable", dimensions: null, embed: () => Promise.reject(new Error(message)) } };
  }
}

/**
 * Sweep every team memory of a team with its policies. Audits each memory
 * that changed (action `sweep`, with `archived`, the number of entries
 * removed) and calls `changed` for it (its event).
 * @returns {Promise<{ today: string, swept: number, archived: number, memories: object[] }>}
 */
export async function sweepTeam({ storage, store, today, member = null, keyId = null, auditMax, changed, metrics }) {
  // The item vectors of the earlier layout, one entry per item: recall reports the lag until each memory is indexed again.
  await deleteItemVectors(storage);
  const policies = await readPolicies(storage);
  const result = { today, swept: 0, archived: 0, memories: [] };
  if (policies.length === 0) return result;
  for (const id of await teamMemoryIds(storage)) {
    const ref = { scope: "team", id };
    let out;
    try {
      out = await store.sweep(ref, { today, policies, actor: member ?? SWEEPER });
    } catch (error) {
      // A memory the store cannot read is reported and skipped: the others are still swept.
      if (!String(error?.code).startsWith("store/")) throw error;
      result.memories.push({ memory: `team/${ref.id}`, status: "unreadable", revision: 0, archived: 0, code: error.code });
      continue;
    }
    result.memories.push({ memory: `team/${ref.id}`, status: out.status, revision: out.revision, archived: out.archived.length });
    if (out.status !== "swept") continue;
    result.swept += 1;
    result.archived += out.archived.length;
    await appendAudit(storage, { member, keyId, action: "sweep", target: `team/${ref.id}`, revision: out.revision, status: 200, archived: out.archived.length }, auditMax);
    await changed?.({ storage, store, ref });
  }
  metrics?.add("memdoc_sweeps_total");
  metrics?.add("memdoc_archived_entries_total", {}, result.archived);
  return result;
}
