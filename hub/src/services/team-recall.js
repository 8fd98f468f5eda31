// Recall across a team (docs/HUB.md, "Recall across a team"): one recall
// over the memories the key can read, the member's own user memory and the
// team's memories (never another member's), within one budget and the caps
// on memories and items. Each memory is recalled as `GET {m}/recall` would
// (by words and meaning when the hub has an embedder), against one date and
// one embedding of the query, then the selected items of all of them are
// ranked by score and kept while their text fits the budget; each names its
// memory. Omitted items are answered as recall-answer.js says. The route
// (routes/recall.js) and the MCP tool `memory_recall` both call it.
import { listEntries } from "../data/memory.js";
import { deletedMarkers } from "../deletion.js";
import { queryOnce } from "../embedding.js";
import { utcToday } from "../dates.js";
import { INDEX_LAGGING, recallFor } from "../lifecycle.js";
import { omittedAnswer } from "../recall-answer.js";
import { countRecalls } from "../stats.js";
import { trace, wantsTrace } from "../trace.js";

const DEFAULT_BUDGET = 4000;
/** The most memories one team recall recalls; the others are counted in `totals.skippedMemories`. */
export const TEAM_RECALL_MEMORIES = 100;
/** Once the memories recalled hold this many items, the others are skipped (counted) too. */
export const TEAM_RECALL_ITEMS = 10_000;
/** The most omitted items one team recall lists (`totals.omitted` counts them all). */
export const TEAM_OMITTED_LISTED = 200;
/** Memories read together (deletion markers, loads) before they are recalled one a turn. */
const READ_AHEAD = 10;
const codePoints = (text) => [...text].length;

/** Candidates numbered below this fit in a packed key's low bits. */
const PACKED = 2 ** 20;

/**
 * The candidates' numbers by `scores`, the best first (ties: the earlier
 * first). Scores are the engine's, whole millionths: each is packed with
 * its number into one key, and the keys sorted as numbers (much faster
 * than a comparison function), unless a score or the count is too large
 * for a key to hold them exactly.
 */
function rankOf(scores) {
  const keys = new Float64Array(scores.length);
  for (let c = 0; c < scores.length; c += 1) {
    const millionths = Math.round(scores[c] * 1e6);
    keys[c] = -millionths * PACKED + c;
    if (millionths / 1e6 !== scores[c] || !Number.isSafeInteger(millionths * PACKED) || c >= PACKED) {
      return Uint32Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b);
    }
  }
  keys.sort();
  const ranked = new Uint32Array(keys.length);
  for (let r = 0; r < keys.length; r += 1) ranked[r] = ((keys[r] % PACKED) + PACKED) % PACKED;
  return ranked;
}

/**
 * The recall across the team's memories that `who` may read, for `params`
 * (`q`, `budget`, `mode`, `omittedText`, `trace`), as `GET
 * /v1/teams/{team}/recall` answers it, audited.
 * @param {import("../context.js").Hub} hub
 * @param {import("../context.js").Caller} who
 * @param {Record<string, string>} params
 */
export async function recallTeam(hub, who, params) {
  const store = hub.storeOf(who.storage);
  // The caller's own user memory first, then the team's by id.
  const refs = (await listEntries(who.storage))
    .map((e) => ({ scope: e.scope, id: e.id }))
    .filter((ref) => ref.scope === "team" || (ref.scope === "user" && ref.id === who.member))
    .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "user" ? -1 : 1));
  const traced = wantsTrace(params);
  const rawBudget = params.budget;
  const budget = rawBudget === undefined ? DEFAULT_BUDGET : Number(rawBudget);
  // One date for every memory's ages, one embedding of the query.
  const today = utcToday();
  const embedder = hub.embedder ? queryOnce(hub.embedder) : null;
  // Every memory's selected items, by their scores alone: each memory's
  // SelectedItems and the memory named, then per candidate its score, its
  // memory's place and its item's.
  const recalledItems = [];
  const named = [];
  const scores = [];
  const owners = [];
  const places = [];
  const omitted = [];
  const counted = [];
  let omittedCount = 0;
  let semantic;
  let items = 0;
  let memories = 0;
  let skipped = 0;
  let lag = 0;
  const unreadable = [];
  // Read READ_AHEAD memories at a time (their deletion markers together,
  // their loads in parallel), then recall them one a turn: other requests
  // (other teams' objects on the same thread) run between them.
  for (let at = 0; at < refs.length; at += READ_AHEAD) {
    const part = refs.slice(at, at + READ_AHEAD);
    if (memories >= TEAM_RECALL_MEMORIES || items >= TEAM_RECALL_ITEMS) {
      skipped += part.length;
      continue;
    }
    const markers = await deletedMarkers(who.storage, part);
    const loads = part.map((ref, i) =>
      markers[i] !== undefined
        ? null
        : store.load(ref).then(
            (loaded) => ({ loaded }),
            // A memory the store cannot read is reported and skipped: the others are still recalled.
            (error) => {
              if (!String(error?.code).startsWith("store/")) throw error;
              return { error };
            },
          ),
    );
    // Settled all, so that none is left rejected unobserved when one throws.
    await Promise.allSettled(loads);
    for (const [i, ref] of part.entries()) {
      if (memories >= TEAM_RECALL_MEMORIES || items >= TEAM_RECALL_ITEMS) {
        skipped += 1;
        continue;
      }
      if (loads[i] === null) continue;
      const { loaded, error } = await loads[i];
      if (error) {
        unreadable.push({ scope: ref.scope, id: ref.id, code: error.code });
        continue;
      }
      if (memories > 0) await hub.turn();
      // Only the omitted items that can still be listed are converted from the engine's.
      const listed = TEAM_OMITTED_LISTED - omitted.length;
      const recalled = await recallFor(hub, who, ref, loaded.content, params, { today, embedder, counted, listed, scored: true });
      const memory = { scope: ref.scope, id: ref.id, revision: loaded.revision };
      memories += 1;
      items += recalled.totals.items;
      if (recalled.semantic && (semantic === undefined || (recalled.semantic.degraded !== null && semantic.degraded === null))) semantic = { ...recalled.semantic };
      if (recalled.semantic?.degraded === INDEX_LAGGING) lag += recalled.semantic.lag;
      // Each selected item by its score alone: only those answered are made into objects.
      const { selected } = recalled;
      for (let k = 0; k < selected.length; k += 1) {
        scores.push(selected.score(k));
        owners.push(recalledItems.length);
        places.push(k);
      }
      recalledItems.push(selected);
      named.push(memory);
      // Only those that can be listed are kept (the budget's come first).
      omittedCount += recalled.totals.omitted;
      for (const item of recalled.omitted.slice(0, listed)) omitted.push({ ...item, memory });
    }
  }
  await countRecalls(who.storage, counted);
  // Every memory's items not indexed yet.
  if (semantic?.degraded === INDEX_LAGGING) semantic.lag = lag;
  // The best first (ties: memory order, then the item's), while the text fits.
  const ranked = rankOf(scores);
  const selected = [];
  const overBudget = [];
  let overBudgetCount = 0;
  let chars = 0;
  for (const c of ranked) {
    const items = recalledItems[owners[c]];
    const memory = named[owners[c]];
    const k = places[c];
    // A text of n UTF-16 units has n / 2 code points at least: past the budget without counting them.
    const size = chars + items.textLength(k) / 2 > budget ? Infinity : codePoints(items.text(k));
    if (chars + size > budget) {
      overBudgetCount += 1;
      if (overBudget.length < TEAM_OMITTED_LISTED) overBudget.push({ ...items.item(k), memory, reason: "budget" });
      continue;
    }
    chars += size;
    selected.push({ ...items.item(k), memory });
  }
  // Listed: the items the budget left out (best first), then the others, at most TEAM_OMITTED_LISTED.
  const listed = [...overBudget, ...omitted].slice(0, TEAM_OMITTED_LISTED);
  await who.audit({ status: 200 });
  return {
    chars,
    selected,
    omitted: omittedAnswer(params, listed),
    totals: { memories, items, selected: selected.length, omitted: overBudgetCount + omittedCount, budget, skippedMemories: skipped },
    ...(unreadable.length ? { unreadable } : {}),
    ...(semantic ? { semantic } : {}),
    ...(traced ? { trace: trace(listed) } : {}),
  };
}
