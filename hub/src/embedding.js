// Recall by meaning on the hub (docs/HUB.md, "Recall by meaning"): the
// indexing of a memory after a save, into its vector record
// (data/vectors.js), and the count of items not yet indexed (`indexLag` of
// the stats). The embedder itself comes from the
// runtime (worker.js, deno.js), built from the settings.
import { vectorKey } from "memdoc";

import { exclusive } from "./data/memory.js";
import { readTeam } from "./data/team.js";
import { deleteVectorsBut, hasVectors, modelTag, readMemoryVectors, writeVectors } from "./data/vectors.js";
import { memoryItems } from "./prepared-memories.js";
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

/** The items of `ref`'s `content` not indexed by `model` (all of them until its record is written): one storage read. */
export async function unindexed(model, storage, ref, content) {
  if (await hasVectors(storage, ref, model.id, await textHash(content))) return 0;
  return memoryItems(storage, content).length;
}

/** The most texts one indexing call gives the embedder: the thread is given back between calls (turns.js). */
const BATCH = 16;

/**
 * Index `ref`'s `content`: the vectors of its items an earlier record of
 * the memory holds are kept, the others embedded, BATCH texts a call with
 * a turn between calls, and the memory's new record written (data/vectors.js)
 * before its earlier ones are deleted. Runs after a save has answered,
 * inside the memory's queue: its failure is logged, never the save's.
 * @returns {Promise<number>} the texts embedded
 */
export async function indexMemory(embedder, storage, ref, content) {
  const hash = await textHash(content);
  const earlier = await readMemoryVectors(storage, ref);
  const model = modelTag(embedder.id);
  if (earlier.records.some((r) => r.model === model && r.hash === hash && r.record)) {
    // Indexed already (a save of the same text): only what an interrupted indexing left is deleted.
    await deleteVectorsBut(storage, ref, embedder.id, hash, earlier.keys);
    return 0;
  }
  const known = new Map();
  for (const { record } of earlier.records.filter((r) => r.model === model && r.record)) {
    record.keys.forEach((key, i) => known.set(key, record.vectors.subarray(i * record.dimensions, (i + 1) * record.dimensions)));
  }
  const items = memoryItems(storage, content);
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
  const dimensions = keys.length > 0 ? known.get(keys[0]).length : (embedder.dimensions ?? 0);
  const vectors = new Float32Array(keys.length * dimensions);
  keys.forEach((key, i) => {
    const vector = known.get(key);
    if (vector.length !== dimensions) throw new Error(`a vector has ${vector.length} dimensions, another ${dimensions}`);
    vectors.set(vector, i * dimensions);
  });
  await writeVectors(storage, ref, embedder.id, hash, { keys, vectors, dimensions }, earlier.keys);
  return todo.length;
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
          // A team deleted meanwhile gets nothing written.
          // In the memory's queue: two indexings of one memory never race, nor one and a purge.
          await exclusive(team.storage, ref, async () => {
            if ((await readTeam(team.storage)) === undefined) return;
            const loaded = await team.store.load(ref);
            await indexMemory(await this.embedder(), team.storage, ref, loaded.content);
          });
        } catch (error) {
          this.log?.(`memdoc hub: indexing ${tag} failed: ${error?.message ?? error}`);
        }
      }
    }
  }
}
