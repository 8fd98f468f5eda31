// Hybrid recall through the package with cached vectors (part of `npm run
// bench`; alone: `node bench/hybrid.mjs` after `node scripts/build.mjs`):
// the memory's item vectors in the default cache from a first call, the
// query's from an embedder that has it ready, so that what is timed is
// memdoc's own work: the items listed, their keys hashed and looked up, the
// vectors concatenated, BM25 and 384-dimension cosines, the selection and
// the result. The model's time is its own (the embedder's benchmark).
import { pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";

const DIMENSIONS = 384;

/** A vector for `text`: a seeded sequence, unit length (any model's vectors look alike to recall). */
function vectorOf(text) {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  const v = new Float32Array(DIMENSIONS);
  let norm = 0;
  for (let d = 0; d < DIMENSIONS; d++) {
    seed = Math.imul(seed ^ (seed >>> 13), 0x5bd1e995) ^ d;
    v[d] = ((seed >>> 0) / 4294967296) * 2 - 1;
    norm += v[d] * v[d];
  }
  return v.map((x) => x / Math.sqrt(norm));
}

/** The median milliseconds of `call()` (a promise), about `budgetMs` of calls after a warm-up. */
async function timeAsync(budgetMs, call) {
  for (let i = 0; i < 5; i++) await call();
  const times = [];
  const end = performance.now() + budgetMs;
  while (performance.now() < end || times.length < 5) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], samples: times.length };
}

/** Hybrid and lexical recall of a `chars`-character memory, median ms each. */
export async function benchHybrid(memdoc, { chars = 25_000, budgetMs = 1_000 } = {}) {
  const text = genDoc(chars);
  const query = "postgres migration latency";
  const ready = new Map();
  const embedder = {
    id: "bench-384",
    dimensions: DIMENSIONS,
    async embed(texts) {
      return texts.map((t) => {
        if (!ready.has(t)) ready.set(t, vectorOf(t));
        return ready.get(t);
      });
    },
  };
  const options = { scope: "team", budget: Math.max(4_000, Math.floor(chars / 10)), today: "2026-12-01", embedder };
  await memdoc.hybridRecall(text, query, options);
  const items = memdoc.recallItems(text).length;
  const hybrid = await timeAsync(budgetMs, () => memdoc.hybridRecall(text, query, options));
  const lexical = await timeAsync(budgetMs, async () => memdoc.recall(text, query, options));
  return { chars, items, hybrid, lexical };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const memdoc = await import(pathToFileURL(new URL("../pkg/node.js", import.meta.url).pathname).href);
  const r = await benchHybrid(memdoc);
  console.log(
    `hybridRecall, ${r.chars.toLocaleString("en")} characters (${r.items} items), vectors cached: ${r.hybrid.ms.toFixed(2)} ms median (${r.hybrid.samples} calls); recall by words: ${r.lexical.ms.toFixed(2)} ms`,
  );
}
