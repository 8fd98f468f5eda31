// A team's expiry policies (docs/HUB.md, "Recall and lifecycle"): one
// stored list of `{ section, maxAgeDays }`, checked as the engine checks
// them before it is kept.

import { expire } from "memdoc";

import { engineProblem, HubProblem } from "./problem.js";

export { readPolicies, writePolicies } from "./data/lifecycle.js";

const MAX_POLICIES = 100;
const SECTION_CHARS = 200;

/**
 * The policies of a request's body `{ policies }`, as kept, or a 400
 * problem (the engine's own check, with its codes).
 */
export function checkedPolicies(body) {
  const policies = body?.policies;
  if (!Array.isArray(policies) || policies.length > MAX_POLICIES) {
    throw new HubProblem(400, "request/invalid-body", `\`policies\` must be a list of at most ${MAX_POLICIES} { section, maxAgeDays }.`);
  }
  // A title needs a letter or digit as hub/openapi.json says it (\p{L}, \p{N}):
  // the engine's own rule also takes other alphabetic marks, which no client
  // generated from the schema could send.
  const untitled = policies.findIndex((p) => typeof p?.section === "string" && !/[\p{L}\p{N}]/u.test(p.section));
  if (untitled >= 0) throw new HubProblem(400, "options/invalid-policy", `policy ${untitled}: the section title needs a letter or digit.`);
  // The policies are one stored value, which storage bounds (64 KiB on Deno KV).
  const long = policies.findIndex((p) => typeof p?.section === "string" && p.section.length > SECTION_CHARS);
  if (long >= 0) throw new HubProblem(400, "options/invalid-policy", `policy ${long}: a section title is at most ${SECTION_CHARS} characters.`);
  // Ages JSON cannot carry exactly (past 2^53 - 1) are refused, not rounded.
  const inexact = policies.findIndex((p) => typeof p?.maxAgeDays === "number" && Number.isInteger(p.maxAgeDays) && !Number.isSafeInteger(p.maxAgeDays));
  if (inexact >= 0) throw new HubProblem(400, "options/invalid-policy", `policy ${inexact}: maxAgeDays must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`);
  try {
    expire("", { today: "2000-01-01", policies });
  } catch (error) {
    throw engineProblem(error);
  }
  return policies.map((p) => ({ section: p.section, maxAgeDays: p.maxAgeDays }));
}
