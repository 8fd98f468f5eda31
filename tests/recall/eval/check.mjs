// Enforces what the evaluation sets promise (`node tests/recall/eval/check.mjs`,
// and test-js/recall-eval.test.mjs): a paraphrase question shares no content
// word with its answer. Words are the engine's own (a one-item recall that
// names a shared word in `why.terms`, stop words never), and also compared
// after a crude English stemming (-s, -es, -ed, -ing, -ly), so that "logs"
// and "log", "invited" and "invite" count as shared.
import { pathToFileURL } from "node:url";

import { heldout, memory, questions } from "./harness.mjs";

const STEM = /(?:ing|ed|es|ly|s)$/u;

function stem(word) {
  return word.length > 4 ? word.replace(STEM, "") : word;
}

/** The content words the question shares with its answer's entry. */
export function shared(memdoc, q) {
  const line = memory(q.memory)
    .split("\n")
    .find((l) => l.includes(q.answer));
  const entry = line.replace(/^- \d{4}-\d{2}-\d{2}: /u, "");
  // The engine's words: the question's content words the entry contains.
  const one = memdoc.recall(`## .\n- 2025-01-01: ${entry}`, q.question);
  const exact = [...one.selected, ...one.omitted][0].why.terms;
  // The same after stemming: each question word the engine counts (it is
  // not a stop word) whose stem is an entry word's stem.
  const words = (s) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = new Set(words(entry).map(stem));
  const stemmed = words(q.question).filter(
    (w) => stems.has(stem(w)) && memdoc.recall(`## .\n- 2025-01-01: ${w}`, w).selected.length > 0,
  );
  return [...new Set([...exact, ...stemmed])];
}

/** Every paraphrase question that shares a content word, with the words. */
export function violations(memdoc) {
  return [...questions, ...heldout]
    .filter((q) => q.kind === "paraphrase")
    .map((q) => ({ question: q.question, answer: q.answer, words: shared(memdoc, q) }))
    .filter((v) => v.words.length > 0);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const memdoc = await import("../../../pkg/node.js");
  const found = violations(memdoc);
  const paraphrases = [...questions, ...heldout].filter((q) => q.kind === "paraphrase").length;
  for (const v of found) console.error(`${JSON.stringify(v.question)} shares ${v.words.join(", ")} with ${JSON.stringify(v.answer)}`);
  console.log(`${paraphrases - found.length} of ${paraphrases} paraphrase questions share no content word with their answer`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
