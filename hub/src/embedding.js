// Recall by meaning on the hub (docs/HUB.md, "Recall by meaning"): the
// indexing of a memory's new items after a save, into the team's item
// vectors (data/vectors.js), and the count of items not yet embedded
// (`indexLag` of the stats). The embedder itself comes from the
// runtime (worker.js, deno.js), built from the settings.
import { vectorKey } from "memdoc";

import { readTeam } from "./data/team.js";
import { teamVectorCache } from "./data/vectors.js";
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

/** The items of `content` whose vector the team does not hold yet (each distinct text once). */
export async function unembedded(embedder, storage, content) {
  const missing = new Map();
  const items = memoryItems(storage, content);
  const keys = items.map((item) => vectorKey(embedder.id, item));
  const cached = await teamVectorCache(storage).getMany(keys);
  keys.forEach((key, i) => {
    if (cached[i] === undefined) missing.set(key, items[i]);
  });
  return missing;
}

/** The most texts one indexing call gives the embedder: the thread is given back between calls (turns.js). */
const BATCH = 16;

/**
 * Embed the items of `content` the team does not hold yet and keep their
 * vectors, BATCH texts a call, each call's in one write, with a turn between
 * calls. Runs after a save has answered: its failure is logged, never the
 * save's.
 */
export async function indexMemory(embedder, storage, content) {
  const missing = [...(await unembedded(embedder, storage, content))];
  const cache = teamVectorCache(storage);
  for (let at = 0; at < missing.length; at += BATCH) {
    if (at > 0) await nextTurn();
    const part = missing.slice(at, at + BATCH);
    const vectors = await embedder.embed(part.map(([, text]) => text), "document");
    if (!Array.isArray(vectors) || vectors.length !== part.length) throw new Error(`the embedder gave ${vectors?.length ?? "no"} vectors for ${part.length} texts`);
    await cache.setMany(part.map(([key], i) => [key, vectors[i] instanceof Float32Array ? vectors[i] : Float32Array.from(vectors[i])]));
  }
  return missing.length;
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
          if ((await readTeam(team.storage)) === undefined) continue;
          const loaded = await team.store.load(ref);
          await indexMemory(await this.embedder(), team.storage, loaded.content);
        } catch (error) {
          this.log?.(`memdoc hub: indexing ${tag} failed: ${error?.message ?? error}`);
        }
      }
    }
  }
}
