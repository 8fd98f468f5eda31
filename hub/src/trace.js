// A recall's "why not" (docs/HUB.md, "Recall and lifecycle"): with
// `?trace=true` (or `=1`) a recall answers `trace`, the items left below
// the cut, best score first, each with the reason the engine gave
// (`budget`, `no-match`, `too-large`, ...), and how many were left out for
// each reason: the engine's `omitted` list, ordered for a person asking
// why an entry was not recalled.
import { flagOf } from "./query.js";

/** Whether the request's query parameters ask for the trace. */
export const wantsTrace = (params) => params.trace === "1" || flagOf(params.trace, "trace");

/** The trace of the items a recall left out. */
export function trace(omitted) {
  const reasons = {};
  for (const item of omitted) reasons[item.reason] = (reasons[item.reason] ?? 0) + 1;
  const items = omitted
    .map((item, at) => ({ item, at }))
    .sort((a, b) => b.item.score - a.item.score || a.at - b.at)
    .map(({ item }) => ({ reason: item.reason, score: item.score, section: item.section, date: item.date, text: item.text, ...(item.memory ? { memory: item.memory } : {}) }));
  return { reasons, items };
}
