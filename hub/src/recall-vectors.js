// The vectors of a recall by meaning of one team or user memory (docs/HUB.md,
// "Recall by meaning"): the query's, embedded once per request, and every
// item's, concatenated in the engine's item order, as `recallWithVectors`
// takes them. Item vectors come from the memory's records by the embedder
// (data/vectors.js, one storage read per memory: its current text's, and
// during a change an earlier text's, whose items kept their vectors); the
// memory prepared for recall holds them (prepared-memories.js), so a team
// recall over 100 memories recalled again costs their scoring, not 100
// storage reads and 7,600 vectors copied and checked.
import { vectorKey } from "memdoc";

import { readModelVectors, vectorsByKey } from "./data/vectors.js";
import { textHash } from "./embedding.js";
import { memoryItems } from "./prepared-memories.js";

/** The query vectors checked, by the embedder's answer (a request's one embedding, asked by each memory it recalls). */
const checked = new WeakMap();

/**
 * The query's vector, checked as hybridRecall checks one (`dimensions`:
 * the embedder's, when it says).
 * @param {import("memdoc").Embedder} embedder
 */
export async function queryVector(embedder, q) {
  const vectors = await embedder.embed([q], "query");
  if (!Array.isArray(vectors) || vectors.length !== 1) throw new Error(`the embedder gave ${vectors?.length ?? "no"} vectors for 1 text`);
  if (checked.has(vectors)) return checked.get(vectors);
  const vector = vectors[0] instanceof Float32Array ? vectors[0] : Float32Array.from(vectors[0]);
  if (vector.length === 0 || (embedder.dimensions && vector.length !== embedder.dimensions)) throw new Error(`a vector has ${vector.length} dimensions, the embedder says ${embedder.dimensions}`);
  if (!vector.every(Number.isFinite)) throw new Error("a vector has a value that is not finite");
  checked.set(vectors, vector);
  return vector;
}

/**
 * Every item's vector of `ref`'s `content`, concatenated: from the record of
 * the text, else by item from the memory's other records (an item none
 * holds: zeros, matched by words alone), and how many are missing.
 * @param {import("./data/storage.js").TeamStorage} storage
 * @param {string} model the embedder's id
 * @param {number} dimensions the query vector's
 * @returns {Promise<{ vectors: Float32Array, missing: number }>}
 */
export async function readItemVectors(storage, ref, model, dimensions, content) {
  const items = memoryItems(storage, ref, content);
  // A memory without items has nothing to index.
  if (items.length === 0) return { vectors: new Float32Array(0), missing: 0 };
  const records = await readModelVectors(storage, ref, model);
  // A memory no record holds yet: no text to hash.
  if (records.length === 0) return { vectors: new Float32Array(items.length * dimensions), missing: items.length };
  const hash = await textHash(content);
  const current = records.find((r) => r.hash === hash)?.record;
  if (current !== undefined && current.keys.length === items.length) {
    if (current.dimensions !== dimensions) throw new Error(`the item vectors have ${current.dimensions} dimensions, the query's ${dimensions}`);
    return { vectors: current.vectors, missing: 0 };
  }
  const byKey = vectorsByKey(records, hash);
  const vectors = new Float32Array(items.length * dimensions);
  let missing = 0;
  items.forEach((item, i) => {
    const vector = byKey.get(vectorKey(model, item));
    if (vector === undefined) {
      missing += 1;
      return;
    }
    if (vector.length !== dimensions) throw new Error(`the vector of item ${i} has ${vector.length} dimensions, the query's ${dimensions}`);
    vectors.set(vector, i * dimensions);
  });
  return { vectors, missing };
}
