// hybridRecall (docs/API.md, "Recall by meaning"): the engine prepares the
// recall (checks the options, parses the memory once, lists its items), the
// items and the query are embedded by the caller's embedder (items through
// the vector cache, the query through the embedder's recent queries), and
// the engine finishes the recall with the vectors. When the embedder fails,
// the result is recall by words alone and says so (`semantic.degraded`); it
// never falls back to another model.
import { PreparedRecall } from "./core.js";
import { chooseEmbedder } from "./language.js";
import { defaultCache, vectorKey } from "./vectors.js";

/** The code of a result by words alone because the embedder failed. */
export const EMBEDDER_UNAVAILABLE = "embedder/unavailable";

/**
 * With the default cache, the item vectors of the memories recalled last
 * (by embedder id and text), concatenated as the engine takes them: a
 * memory recalled again is neither listed, hashed nor looked up again.
 * Vectors are a function of the model and the text, so they stay right.
 */
const MEMORIES = 8;
const memories = new Map();

/**
 * Per embedder (the object), the vectors of the queries it embedded last,
 * most recent last: a query asked again, of one memory or of many, is
 * embedded once. Vectors are a function of the model and the text.
 */
const QUERIES = 32;
const queries = new WeakMap();

/** The query's vector, from the embedder's recent queries or embedded and kept. */
async function queryVector(embedder, query) {
  let recent = queries.get(embedder);
  if (recent === undefined) queries.set(embedder, (recent = new Map()));
  const known = recent.get(query);
  if (known !== undefined) {
    recent.delete(query);
    recent.set(query, known);
    return known;
  }
  const [vector] = await embedAs(embedder, [query], "query");
  recent.set(query, vector);
  if (recent.size > QUERIES) recent.delete(recent.keys().next().value);
  return vector;
}

export async function hybridRecall(text, query, options) {
  const { embedder: given, multilingualEmbedder, cache, ...rest } = options ?? {};
  checkEmbedder(given);
  if (multilingualEmbedder !== undefined) checkEmbedder(multilingualEmbedder, "multilingualEmbedder");
  // Arguments and options are checked before anything is embedded.
  const prepared = new PreparedRecall(text, query, rest);
  // A memory or a query mostly not in Latin letters gets the multilingual
  // embedder when there is one (language.js).
  const embedder = chooseEmbedder(text, query, given, multilingualEmbedder);
  let vectors;
  try {
    vectors = await (cache === undefined ? embedKnown(embedder, text, prepared, query) : embedAll(embedder, cache, prepared.items, query));
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    return { ...prepared.finish(), semantic: { model: embedder.id, degraded: EMBEDDER_UNAVAILABLE, message } };
  }
  const result = prepared.finishWithVectors(embedder.id, vectors.query, vectors.items);
  return { ...result, semantic: { model: embedder.id, degraded: null } };
}

/** A coded error for an embedder that is not `{ id, dimensions, embed }`. */
function checkEmbedder(embedder, name = "embedder") {
  if (
    embedder === null ||
    typeof embedder !== "object" ||
    typeof embedder.id !== "string" ||
    embedder.id === "" ||
    typeof embedder.embed !== "function"
  ) {
    const error = new TypeError(`options.${name}: expected { id, dimensions, embed(texts, kind) }`);
    error.code = "options/invalid";
    throw error;
  }
}

function memoKey(embedder, text) {
  return `${embedder.id}\u0000${text}`;
}

/** `embedAll` with the default cache, through the memories recalled last. */
async function embedKnown(embedder, text, prepared, query) {
  const key = memoKey(embedder, text);
  const memo = memories.get(key);
  if (memo === undefined) {
    const vectors = await embedAll(embedder, defaultCache(embedder.id), prepared.items, query);
    memories.set(key, vectors.items);
    if (memories.size > MEMORIES) memories.delete(memories.keys().next().value);
    return vectors;
  }
  const vector = await queryVector(embedder, query);
  if (memo.length % vector.length !== 0) {
    throw new Error(`the query's vector has ${vector.length} dimensions, the items' another number`);
  }
  return { query: vector, items: memo };
}

/**
 * The query's vector and every item's, concatenated in item order; items
 * from the cache where it has them, the others embedded in one call (each
 * distinct text once) and stored.
 */
async function embedAll(embedder, cache, items, query) {
  const keys = items.map((item) => vectorKey(embedder.id, item));
  const cached = await cache.getMany(keys);
  const missing = new Map();
  keys.forEach((key, i) => {
    if (cached[i] === undefined && !missing.has(key)) missing.set(key, items[i]);
  });
  const [queryVec, fresh] = await Promise.all([
    queryVector(embedder, query),
    missing.size === 0 ? [] : embedAs(embedder, [...missing.values()], "document"),
  ]);
  const dimensions = queryVec.length;
  const found = new Map();
  [...missing.keys()].forEach((key, i) => found.set(key, fresh[i]));
  const out = new Float32Array(items.length * dimensions);
  keys.forEach((key, i) => {
    const vector = cached[i] ?? found.get(key);
    if (vector.length !== dimensions) {
      throw new Error(`the vector of item ${i} has ${vector.length} dimensions, the query's ${dimensions}`);
    }
    out.set(vector, i * dimensions);
  });
  if (found.size > 0) await cache.setMany([...found]);
  return { query: queryVec, items: out };
}

/** `embedder.embed(texts, kind)`, checked: one finite vector per text. */
async function embedAs(embedder, texts, kind) {
  const vectors = await embedder.embed(texts, kind);
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new Error(`the embedder gave ${vectors?.length ?? "no"} vectors for ${texts.length} texts`);
  }
  return vectors.map((v) => {
    const vector = v instanceof Float32Array ? v : Float32Array.from(v);
    if (vector.length === 0 || (embedder.dimensions && vector.length !== embedder.dimensions)) {
      throw new Error(`a vector has ${vector.length} dimensions, the embedder says ${embedder.dimensions}`);
    }
    if (!vector.every(Number.isFinite)) throw new Error("a vector has a value that is not finite");
    return vector;
  });
}
