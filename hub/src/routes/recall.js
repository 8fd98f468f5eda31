// Recall (docs/HUB.md, "Recall and lifecycle"): `GET {m}/recall?q=&budget=`
// recalls one memory (lifecycle.js's `recallFor`), and `GET
// /v1/teams/{team}/recall?q=&budget=` ("Recall across a team") makes one
// recall over every memory the key can read, the team's memories and the
// member's own user memory (never another member's), within one budget. Each memory is recalled as `GET {m}/recall` would
// (by words and meaning when the hub has an embedder), then the selected
// items of all of them are ranked by score and kept while their text fits
// the budget; each names its memory.
import { Hono } from "hono";

import { MEMORY_PATH as M, memoryRole, teamRole } from "../access.js";
import { allow } from "../allow.js";
import { deletedMarker } from "../deletion.js";
import { etag } from "../etag.js";
import { recallFor } from "../lifecycle.js";
import { trace, wantsTrace } from "../trace.js";

const DEFAULT_BUDGET = 4000;
const codePoints = (text) => [...text].length;

/** @type {Hono<import("../context.js").Env>} */
export const recalls = new Hono();

recalls.get(`${M}/recall`, memoryRole("recall", "reader"), async (c) => {
  const { caller: who, memory: { ref, store } } = c.var;
  const loaded = await store.load(ref);
  const traced = wantsTrace(c);
  const recalled = await recallFor(c, who, ref, loaded.content);
  await who.audit({ status: 200, revision: loaded.revision });
  return c.json({ revision: loaded.revision, ...recalled, ...(traced ? { trace: trace(recalled.omitted) } : {}) }, 200, { etag: etag(loaded.revision) });
});
recalls.all(`${M}/recall`, allow("GET"));

recalls.get("/recall", teamRole("recall", "reader"), async (c) => {
  const { caller: who, hub } = c.var;
  const store = hub.storeOf(who.storage);
  const refs = (await who.storage.list(["memory"]))
    .map((e) => ({ scope: e.key[1], id: e.key[2] }))
    .filter((ref) => ref.scope === "team" || (ref.scope === "user" && ref.id === who.member));
  const traced = wantsTrace(c);
  const rawBudget = c.req.query("budget");
  const budget = rawBudget === undefined ? DEFAULT_BUDGET : Number(rawBudget);
  const candidates = [];
  const omitted = [];
  let semantic;
  let items = 0;
  for (const ref of refs) {
    if ((await deletedMarker(who.storage, ref)) !== undefined) continue;
    const loaded = await store.load(ref);
    const recalled = await recallFor(c, who, ref, loaded.content);
    const memory = { scope: ref.scope, id: ref.id, revision: loaded.revision };
    items += recalled.totals.items;
    if (recalled.semantic && (semantic === undefined || recalled.semantic.degraded)) semantic = recalled.semantic;
    for (const item of recalled.selected) candidates.push({ ...item, memory });
    for (const item of recalled.omitted) omitted.push({ ...item, memory });
  }
  // The best first (ties: memory order, then the item's), while the text fits.
  const ranked = candidates.map((item, at) => ({ item, at })).sort((a, b) => b.item.score - a.item.score || a.at - b.at);
  const selected = [];
  let chars = 0;
  for (const { item } of ranked) {
    const size = codePoints(item.text);
    if (chars + size > budget) {
      omitted.push({ ...item, reason: "budget" });
      continue;
    }
    chars += size;
    selected.push(item);
  }
  await who.audit({ status: 200 });
  return c.json({
    chars,
    selected,
    omitted,
    totals: { memories: refs.length, items, selected: selected.length, omitted: omitted.length, budget },
    ...(semantic ? { semantic } : {}),
    ...(traced ? { trace: trace(omitted) } : {}),
  });
});
recalls.all("/recall", allow("GET"));
