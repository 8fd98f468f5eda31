// The outcome of a save (PUT of a memory, a revert, a task memory's PUT):
// 200 with the new revision's tag when the store wrote it (or had it
// already), 422 when the engine rejected it, 412 when the memory moved on
// since the If-Match revision, and 409 with the store's merge when a merge
// was asked for and conflicts. A save that changed a memory is counted,
// audited, listed in the directory, sent to its subscribers, and indexed
// for recall by meaning after the response.
import { recordMemory } from "./directory.js";
import { etag } from "./etag.js";
import { HubProblem } from "./problem.js";
import { count } from "./stats.js";

/**
 * The answer's body (its tag is its revision's), or the refusal thrown.
 * @param {import("./context.js").Hub} hub
 * @param {import("./context.js").Caller} who
 * @param {import("memdoc").SaveOutcome} outcome the store's
 * @param {{ ref: import("memdoc").MemoryRef | null, store: import("memdoc").MemoryStore, base: number, merging: boolean }} save
 *   `ref` null: the memory is not listed (a task memory)
 */
export async function settleSave(hub, who, outcome, { ref, store, base, merging }) {
  const body = { status: outcome.status, revision: outcome.revision, content: outcome.content, usage: outcome.usage, diagnostics: outcome.diagnostics, dropped: outcome.dropped, notice: outcome.notice };
  // A merged save is one written over revisions saved since its base.
  const mergedOver = outcome.status === "saved" && outcome.changed && base > 0 && outcome.revision > base + 1;
  hub.metrics.add("memdoc_saves_total", { outcome: mergedOver ? "merged" : outcome.status });
  if (outcome.status !== "rejected") await count(who.storage, { writes: outcome.changed ? 1 : 0, conflicts: outcome.status === "conflict" ? 1 : 0, merges: mergedOver ? 1 : 0 });
  if (outcome.status === "saved" || outcome.status === "no_op") {
    await who.audit({ status: 200, revision: outcome.revision });
    // A memory without a ref (a task memory) is not listed, and its route sent its event.
    if (outcome.changed && ref !== null) {
      await recordMemory(who.storage, ref);
      await hub.runtime.changed?.({ storage: who.storage, store, ref });
      // The new items' vectors, after the response: a save never waits on the embedder.
      hub.indexing.add(who.storage, store, ref);
    }
    return body;
  }
  if (outcome.status === "rejected") {
    throw new HubProblem(422, "save/rejected", outcome.notice ?? "The save was rejected; see diagnostics.", { extra: { diagnostics: outcome.diagnostics, usage: outcome.usage } });
  }
  // A conflict: the memory moved on since `base`.
  const headers = { etag: etag(outcome.revision) };
  if (!merging) {
    throw new HubProblem(412, "http/precondition-failed", `The memory is at revision ${outcome.revision}, not ${base}; re-read it and save again (or ?onConflict=merge).`, { headers, extra: { currentRevision: outcome.revision } });
  }
  // The store's own merge: ours is what it holds now, theirs this edit.
  const { conflicts, merged } = outcome;
  throw new HubProblem(409, "store/conflict", outcome.notice ?? "The changes conflict with what was saved since; nothing was written.", { headers, extra: { currentRevision: outcome.revision, content: outcome.content, usage: outcome.usage, conflicts, merged } });
}
