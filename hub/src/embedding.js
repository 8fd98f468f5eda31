// Recall by meaning on the hub (docs/HUB.md, "Recall by meaning"): the
// indexing of a memory after a save, into its vector record
// (data/vectors.js), and the count of items not yet indexed (`indexLag` of
// the stats). The embedder itself comes from the
// runtime (worker.js, deno.js), built from the settings.
import { vectorKey } from "memdoc";

import { exclusive } from "./data/memory.js";
import { readTeam } from "./data/team.js";
import { deleteVectorsBut, memoryVectorKeys, readModelVectors, vectorsByKey, writeVectors } from "./data/vectors.js";
import { forgetMissingVectors, memoryItems } from "./prepared-memories.js";
import { nextTurn } from "./turns.js";

/**
 * An embedder loader for one request: the query is embedded once, however
 * many memories it is recalled in.
 * @param {() => Promise<import("memdoc").Embedder>} load
 */
export function queryOnce(load) {
  let query = null;
  return async () => {
    const model = await load();
    return { id: model.id, dimensions: model.dimensions, embed: (texts, kind) => (kind === "query" ? (query ??= model.embed(texts, kind)) : model.embed(texts, kind)) };
  };
}

/** The hash of a memory's text its vector record is kept under (hex, 128 bits of SHA-256). */
export async function textHash(content) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content)));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The items of `ref`'s `content` none of its records by `model` holds a vector for: one storage read. */
export async function unindexed(model, storage, ref, content) {
  const items = memoryItems(storage, ref, content);
  if (items.length === 0) return 0;
  const known = vectorsByKey(await readModelVectors(storage, ref, model.id), await textHash(content));
  return items.filter((item) => !known.has(vectorKey(model.id, item))).length;
}

/** The most texts one indexing call gives the embedder: the thread is given back between calls (turns.js). */
const BATCH = 16;

/**
 * Index `ref`'s current text (its head, loaded from `store`): the vectors of
 * its items an earlier record of the memory holds are kept, the others
 * embedded, BATCH texts a call with a turn between calls, outside the
 * memory's queue (a save never waits for an embedding). Then, in the
 * memory's queue, a short storage step: unless the team is gone or the
 * memory's head has another text by then (its own save queued that one),
 * the new record is written (data/vectors.js) and the memory's other
 * records deleted, so a purge, in the same queue, never races with it;
 * then a prepared memory of it whose vectors lacked items lets them go.
 * Runs after a save has answered: its failure is logged, never the save's.
 * @returns {Promise<number>} the texts embedded
 */
export async function indexMemory(embedder, storage, store, ref) {
  const { content } = await store.load(ref);
  const hash = await textHash(content);
  const records = await readModelVectors(storage, ref, embedder.id);
  let record = null;
  let embedded = 0;
  if (!records.some((r) => r.hash === hash && r.record)) {
    const known = vectorsByKey(records, hash);
    const items = memoryItems(storage, ref, content);
    const keys = items.map((item) => vectorKey(embedder.id, item));
    const missing = new Map();
    keys.forEach((key, i) => {
      if (!known.has(key)) missing.set(key, items[i]);
    });
    const todo = [...missing];
    for (let at = 0; at < todo.length; at += BATCH) {
      if (at > 0) await nextTurn();
      const part = todo.slice(at, at + BATCH);
      const vectors = await embedder.embed(part.map(([, text]) => text), "document");
      if (!Array.isArray(vectors) || vectors.length !== part.length) throw new Error(`the embedder gave ${vectors?.length ?? "no"} vectors for ${part.length} texts`);
      part.forEach(([key], i) => known.set(key, vectors[i] instanceof Float32Array ? vectors[i] : Float32Array.from(vectors[i])));
    }
    embedded = todo.length;
    const dimensions = keys.length > 0 ? known.get(keys[0]).length : (embedder.dimensions ?? 0);
    const vectors = new Float32Array(keys.length * dimensions);
    keys.forEach((key, i) => {
      const vector = known.get(key);
      if (vector.length !== dimensions) throw new Error(`a vector has ${vector.length} dimensions, another ${dimensions}`);
      vectors.set(vector, i * dimensions);
    });
    record = { keys, vectors, dimensions };
  }
  await exclusive(storage, ref, async () => {
    // A team deleted, a memory purged or saved again meanwhile gets nothing written.
    if ((await readTeam(storage)) === undefined) return;
    const head = await store.load(ref);
    if (head.revision === 0 || (await textHash(head.content)) !== hash) return;
    const stale = await memoryVectorKeys(storage, ref);
    // Indexed already (a save of the same text): only what an interrupted indexing left is deleted.
    if (record === null) await deleteVectorsBut(storage, ref, embedder.id, hash, stale);
    else await writeVectors(storage, ref, embedder.id, hash, record, stale);
  });
  // Vectors held with items missing are read again by the next recall.
  forgetMissingVectors(storage, ref);
  return embedded;
}

/** Memories of one team waiting for their indexing; past it a save's is left to the next save or recall (and counted in `indexLag`). */
export const INDEX_QUEUE_PER_TEAM = 100;

/**
 * The indexing of saved memories, after their saves answered: one queue
 * per team, each memory in it once however often it is saved meanwhile
 * (its latest revision is what gets indexed), at most
 * INDEX_QUEUE_PER_TEAM memories waiting per team, and one memory at a time
 * for the whole hub, taking the teams in turn (a team with a long queue
 * never holds back another's next memory by more than one).
 */
export class IndexQueue {
  /**
   * @param {{ embedder: (() => Promise<import("memdoc").Embedder>) | null, background?: (work: Promise<unknown>) => void, log?: (line: string) => void }} o
   */
  constructor({ embedder, background, log }) {
    this.embedder = embedder;
    this.background = background;
    this.log = log;
    /** storage id → { storage, store, waiting: Map<tag, ref> } */
    this.teams = new Map();
    this.running = null;
  }

  /** Queue the indexing of `ref` (a no-op without an embedder). */
  add(storage, store, ref) {
    if (!this.embedder) return;
    let team = this.teams.get(storage.id);
    if (!team) this.teams.set(storage.id, (team = { storage, store, waiting: new Map() }));
    const tag = `${ref.scope}/${ref.id}`;
    if (!team.waiting.has(tag)) {
      if (team.waiting.size >= INDEX_QUEUE_PER_TEAM) {
        this.log?.(`memdoc hub: the indexing queue of a team holds ${INDEX_QUEUE_PER_TEAM} memories; ${tag} waits for its next save or recall`);
        return;
      }
      team.waiting.set(tag, ref);
    }
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    this.background?.(this.running);
  }

  async drain() {
    while (this.teams.size > 0) {
      // One memory of each team in turn (teams queued meanwhile join the round).
      for (const [id, team] of this.teams) {
        const [tag, ref] = team.waiting.entries().next().value;
        team.waiting.delete(tag);
        if (team.waiting.size === 0) this.teams.delete(id);
        try {
          await indexMemory(await this.embedder(), team.storage, team.store, ref);
        } catch (error) {
          this.log?.(`memdoc hub: indexing ${tag} failed: ${error?.message ?? error}`);
        }
      }
    }
  }
}
