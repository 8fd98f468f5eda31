// A team's quality figures (docs/HUB.md, "Observability"): what the team's
// requests did, counted in the team's own storage in one record per UTC
// hour (data/stats.js), kept STATS_KEEP_DAYS, and added up by
// `GET /v1/teams/{team}/stats?since=` (admin). Recall times are kept per
// whole millisecond (capped at RECALL_MS_MAX), so the median is exact to
// the millisecond. Updates of one team are made one at a time in this
// process (data/stats.js's queue: one Durable Object per team; one Deno hub per KV
// database).
import { expire } from "memdoc";

import { forgetBefore, listHours, readHour, statsUpdate, writeHour } from "./data/stats.js";
import { listEntries } from "./data/memory.js";
import { dayOf, instantOf, utcToday } from "./dates.js";
import { readPolicies } from "./policies.js";
import { HubProblem } from "./problem.js";
import { unindexed } from "./embedding.js";

export const STATS_KEEP_DAYS = 90;
const RECALL_MS_MAX = 60_000;
const FIELDS = ["writes", "conflicts", "merges", "recalls", "refusals", "expiredEntriesRecalled"];
const hourOf = (ms) => new Date(ms).toISOString().slice(0, 13);

/** Add `counts` (and recall times) to the team's record of this hour. */
export function count(storage, counts, recallMs = []) {
  return statsUpdate(storage, async () => {
    const hour = hourOf(Date.now());
    const record = (await readHour(storage, hour)) ?? { hour, recallMs: {} };
    if (Object.keys(record).length === 2) await forgetBefore(storage, hourOf(Date.now() - STATS_KEEP_DAYS * 86_400_000));
    for (const [field, n] of Object.entries(counts)) record[field] = (record[field] ?? 0) + n;
    for (const time of recallMs) {
      const ms = String(Math.min(RECALL_MS_MAX, Math.round(time)));
      record.recallMs[ms] = (record.recallMs[ms] ?? 0) + 1;
    }
    await writeHour(storage, hour, record);
  });
}

/**
 * Recalls' figures (each `{ recalled, ms }`), in one update of the team's
 * record: their times, and how many of the entries they selected a
 * lifecycle policy of the team says have expired today (a defect when
 * not 0: the sweep should have archived them).
 */
export async function countRecalls(storage, recalls) {
  const policies = await readPolicies(storage);
  // Each dated selected item as an entry of its own section, of every recall at once.
  const entries = [];
  for (const { recalled } of policies.length > 0 ? recalls : []) {
    const selected = recalled.selected ?? [];
    for (let k = 0; k < selected.length; k += 1) {
      const entry = datedEntry(selected, k);
      if (entry !== null) entries.push(entry);
    }
  }
  const expired = entries.length > 0 ? expire(entries.join("\n"), { today: utcToday(), policies }).archived.length : 0;
  await count(storage, { recalls: recalls.length, expiredEntriesRecalled: expired }, recalls.map(({ ms }) => ms));
}

/**
 * Item `k` of `selected` (an array, or a team recall's SelectedItems, read
 * without making its items) as an entry under its section's heading; null
 * when it has no date.
 */
function datedEntry(selected, k) {
  if (Array.isArray(selected)) {
    const { section, date, text } = selected[k];
    return date ? `## ${section}\n- ${date}: ${text}` : null;
  }
  const date = selected.date(k);
  return date ? `## ${selected.section(k)}\n- ${date}: ${selected.text(k)}` : null;
}

/**
 * The items of the team's memories (team and user) whose current text has
 * no vector record yet (one storage read per memory), for `readStats`.
 * @param {import("./context.js").Hub} hub
 */
export const indexLagOf = (hub) => async (storage) => {
  const model = await hub.embedder();
  const store = hub.storeOf(storage);
  let lag = 0;
  for (const e of await listEntries(storage)) {
    const ref = { scope: e.scope, id: e.id };
    const loaded = await store.load(ref).catch(() => null);
    if (loaded) lag += await unindexed(model, storage, ref, loaded.content);
  }
  return lag;
};

/**
 * The figures since `since` (an RFC 3339 instant or a date; default: the
 * last 24 hours). `indexLag(storage)` counts the items not yet embedded
 * (absent without an embedder: the figure is null).
 */
export async function readStats(storage, since, indexLag = null) {
  const from = since === undefined ? Date.now() - 86_400_000 : since.length === 10 ? dayOf(since) : instantOf(since);
  if (!Number.isFinite(from)) {
    throw new HubProblem(400, "request/invalid-query", "?since must be an RFC 3339 date-time (2026-12-01T00:00:00Z) or a date (2026-12-01).");
  }
  const start = hourOf(Math.max(from, 0));
  const out = Object.fromEntries(FIELDS.map((f) => [f, 0]));
  const times = new Map();
  for (const value of await listHours(storage)) {
    if (value.hour < start) continue;
    for (const f of FIELDS) out[f] += value[f] ?? 0;
    for (const [ms, n] of Object.entries(value.recallMs ?? {})) times.set(Number(ms), (times.get(Number(ms)) ?? 0) + n);
  }
  const saves = out.writes + out.conflicts;
  return {
    since: `${start}:00:00.000Z`,
    writes: out.writes,
    conflicts: out.conflicts,
    conflictRate: saves === 0 ? 0 : out.conflicts / saves,
    merges: out.merges,
    recalls: out.recalls,
    recallP50Ms: median(times),
    refusals: out.refusals,
    expiredEntriesRecalled: out.expiredEntriesRecalled,
    // Without an embedder the hub's recall is lexical: nothing is embedded, so nothing lags.
    indexLag: indexLag === null ? null : await indexLag(storage),
  };
}

/** The median of a histogram of whole milliseconds, null when empty. */
function median(times) {
  const total = [...times.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const ms of [...times.keys()].sort((a, b) => a - b)) {
    seen += times.get(ms);
    if (seen >= total / 2) return ms;
  }
  return null;
}
