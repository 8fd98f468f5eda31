// The recall evaluation set measured through the package with any embedder
// (test-js/recall-eval.test.mjs; `node tests/recall/eval/harness.mjs`
// prints the numbers by words alone): paraphrases answered within 1,200 and
// 400 code points, keyword questions answered, unanswerable questions that
// select nothing, and the area under the ROC curve of each question's top
// relevance (answerable against unanswerable).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export const questions = JSON.parse(readFileSync(join(here, "questions.json"), "utf8"));
/** The questions the calibration never sees (replaced facts among them). */
export const heldout = JSON.parse(readFileSync(join(here, "heldout.json"), "utf8"));

const memories = new Map();
export function memory(name) {
  if (!memories.has(name)) memories.set(name, readFileSync(join(here, `${name}.md`), "utf8"));
  return memories.get(name);
}

/** Whether `result` selected the question's answer. */
export function answered(q, result) {
  return result.selected.some((s) => s.text.includes(q.answer));
}

/** The highest relevance of any item of `result`. */
export function topRelevance(result) {
  return Math.max(0, ...[...result.selected, ...result.omitted].map((i) => i.why.relevance));
}

/** The chance that an answerable question's top scores above an unanswerable one's (ties half). */
export function auc(scored) {
  const pos = scored.filter((s) => s.answerable).map((s) => s.top);
  const neg = scored.filter((s) => !s.answerable).map((s) => s.top);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

/**
 * The numbers of `recallOf(question, budget)` (a Promise of a Recall) over
 * the set: shares from 0 to 1, and the questions each missed.
 */
export async function evaluate(recallOf) {
  const out = { paraphrase1200: 0, paraphrase400: 0, keyword: 0, noneSilent: 0, auc: 0, missed: [] };
  const counts = { paraphrase: 0, keyword: 0, none: 0 };
  const scored = [];
  for (const q of questions) {
    counts[q.kind]++;
    const wide = await recallOf(q, 1_200);
    scored.push({ answerable: q.answer !== null, top: topRelevance(wide) });
    if (q.kind === "none") {
      if (wide.selected.length === 0) out.noneSilent++;
      else out.missed.push(`${q.question} selected ${wide.selected.length} items`);
    } else if (q.kind === "keyword") {
      if (answered(q, wide)) out.keyword++;
      else out.missed.push(q.question);
    } else {
      if (answered(q, wide)) out.paraphrase1200++;
      else out.missed.push(q.question);
      if (answered(q, await recallOf(q, 400))) out.paraphrase400++;
    }
  }
  out.paraphrase1200 /= counts.paraphrase;
  out.paraphrase400 /= counts.paraphrase;
  out.keyword /= counts.keyword;
  out.noneSilent /= counts.none;
  out.auc = auc(scored);
  return out;
}

/**
 * For a replaced fact: whether the new entry is selected and the old one is
 * not, or is marked superseded by the new one's line.
 */
export function newestFirst(q, result) {
  const taken = result.selected.find((s) => s.text.includes(q.answer));
  if (taken === undefined) return false;
  return result.selected
    .filter((s) => s.text.includes(q.stale))
    .every((s) => s.why.supersededBy === taken.range.start.line);
}

/** For a replaced fact: whether the old entry is selected without the new one. */
export function staleAlone(q, result) {
  const has = (text) => result.selected.some((s) => s.text.includes(text));
  return has(q.stale) && !has(q.answer);
}

/**
 * The held-out set's numbers for `recallOf(question, budget)`: replaced facts
 * newest first within 400, those returning a stale value alone (within 120,
 * 400 or 1,200), paraphrases within 1,200 and 400, keyword questions
 * answered within 400, unanswerable ones selecting nothing.
 */
export async function evaluateHeldout(recallOf) {
  const out = { replaced: 0, staleAlone: [], paraphrase1200: 0, paraphrase400: 0, keyword: 0, noneSilent: 0 };
  const counts = { replaced: 0, paraphrase: 0, keyword: 0, none: 0 };
  for (const q of heldout) {
    counts[q.kind]++;
    if (q.kind === "replaced") {
      for (const budget of [120, 400, 1_200]) {
        const r = await recallOf(q, budget);
        if (budget === 400 && newestFirst(q, r)) out.replaced++;
        if (staleAlone(q, r)) out.staleAlone.push(`${q.question} within ${budget}`);
      }
    } else if (q.kind === "paraphrase") {
      if (answered(q, await recallOf(q, 1_200))) out.paraphrase1200++;
      if (answered(q, await recallOf(q, 400))) out.paraphrase400++;
    } else if (q.kind === "keyword") {
      if (answered(q, await recallOf(q, 400))) out.keyword++;
    } else if ((await recallOf(q, 1_200)).selected.length === 0) {
      out.noneSilent++;
    }
  }
  for (const kind of Object.keys(counts)) {
    const key = { replaced: ["replaced"], paraphrase: ["paraphrase1200", "paraphrase400"], keyword: ["keyword"], none: ["noneSilent"] }[kind];
    for (const k of key) out[k] /= counts[kind] || 1;
  }
  return out;
}

/** The options of a question's recall. */
export function optionsOf(q, budget) {
  return { scope: q.scope, budget, today: q.today };
}

/**
 * The numbers of a set (its `evaluate`, and `memory` to read the memory a
 * question names) by words alone and, given an embedder, by words and
 * meaning: this set's and the Chinese one's (../eval-zh/harness.mjs).
 */
export async function measureSet({ evaluate, memory }, memdoc, embedder) {
  const lexical = await evaluate(async (q, budget) => memdoc.recall(memory(q.memory), q.question, optionsOf(q, budget)));
  const hybrid =
    embedder === undefined
      ? null
      : await evaluate((q, budget) => memdoc.hybridRecall(memory(q.memory), q.question, { ...optionsOf(q, budget), embedder }));
  return { lexical, hybrid };
}

/** This set's numbers by words alone and, given an embedder, by words and meaning. */
export const measure = (memdoc, embedder) => measureSet({ evaluate, memory }, memdoc, embedder);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const memdoc = await import("../../../pkg/node.js");
  const { lexical } = await measure(memdoc);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `words: paraphrases ${pct(lexical.paraphrase1200)} within 1,200, ${pct(lexical.paraphrase400)} within 400; ` +
      `keyword ${pct(lexical.keyword)}; unanswerable selecting nothing ${pct(lexical.noneSilent)}; AUC ${lexical.auc.toFixed(3)}`,
  );
}
