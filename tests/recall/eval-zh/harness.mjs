// The Chinese and cross-lingual evaluation set (questions.json, written by
// tests/recall/generate.py) measured through the package with any embedder
// (test-js/recall-eval-zh.test.mjs): per kind, the questions answered
// within 1,200 and 400 code points, the unanswerable questions that select
// something. tests/recall_eval_zh.rs measures the same natively.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { answered, measureSet } from "../eval/harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));

export const questions = JSON.parse(readFileSync(join(here, "questions.json"), "utf8"));

const memories = new Map();
/** A memory of the set (`../eval/…` for the English one). */
export function memory(name) {
  if (!memories.has(name)) memories.set(name, readFileSync(join(here, `${name}.md`), "utf8"));
  return memories.get(name);
}

/**
 * For each kind, the share answered within 1,200 and 400 code points (of
 * `none`: the share that selects nothing within 1,200), and the questions
 * answered by `recallOf(question, budget)` (a Promise of a Recall).
 */
export async function evaluate(recallOf) {
  const out = {};
  for (const kind of ["paraphrase", "cross-lingual", "keyword", "none"]) {
    const set = questions.filter((q) => q.kind === kind);
    const found = { 1200: new Set(), 400: new Set() };
    let silent = 0;
    for (const q of set) {
      for (const budget of [1_200, 400]) {
        const result = await recallOf(q, budget);
        if (kind === "none") {
          if (budget === 1_200 && result.selected.length === 0) silent++;
        } else if (answered(q, result)) found[budget].add(q.question);
      }
    }
    out[kind] = { within1200: found[1200].size / set.length, within400: found[400].size / set.length, found, silent: silent / set.length };
  }
  return out;
}

/** The numbers by words alone and, given an embedder, by words and meaning. */
export const measure = (memdoc, embedder) => measureSet({ evaluate, memory }, memdoc, embedder);
