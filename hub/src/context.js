// What a route finds in its context (`c.var`): the hub (its settings, its
// runtime and the services every route shares), set for every request by
// the application (app.js), and, once the key is checked (caller.js,
// access.js), the caller and the memory the route acts on. The caller comes
// from the key alone, never from a body, a query or a tool's argument.
import { MemoryStore } from "memdoc";

import { BoundedMap } from "./bounded-map.js";
import { memoryStore } from "./data/memories.js";
import { IndexQueue } from "./embedding.js";
import { Metrics } from "./metrics.js";
import { RateLimiter } from "./rate-limit.js";
import { nextTurn } from "./turns.js";
import { UnknownKeys } from "./unknown-keys.js";

/**
 * @typedef {object} Hub
 * @property {import("./app.js").HubConfig} config
 * @property {import("./app.js").HubRuntime} runtime
 * @property {Metrics} metrics where this application counts
 * @property {(() => Promise<import("memdoc").Embedder>) | null} embedder recall by meaning's, null for recall by words
 * @property {(storage: import("./data/storage.js").TeamStorage) => MemoryStore} storeOf a team's memories
 * @property {RateLimiter} limiter requests per key (and the operator's)
 * @property {UnknownKeys} unknownKeys refusals of keys no team knows
 * @property {BoundedMap} lastUsed when each key's last use was written
 * @property {IndexQueue} indexing the indexing of saved memories (embedding.js)
 * @property {() => Promise<void>} turn let other requests run between the parts of long work (turns.js)
 *
 * @typedef {object} Caller the holder of the key (caller.js)
 * @property {string} team
 * @property {string} keyId
 * @property {string} member
 * @property {"reader" | "writer" | "admin"} role
 * @property {string | null} expiresAt when the key ends (RFC 3339), null for never
 * @property {number} auditMax entries the team's audit log keeps
 * @property {import("./data/storage.js").TeamStorage} storage the key's team's
 * @property {(entry: object) => Promise<unknown>} audit append an entry of this request to the team's audit log
 * @property {(problem: import("./problem.js").HubProblem, more?: object) => Promise<import("./problem.js").HubProblem>} refuse
 *   audit a refusal, and give back its problem to throw
 *
 * @typedef {object} Memory the memory a route acts on (access.js)
 * @property {import("memdoc").MemoryRef} ref
 * @property {MemoryStore} store
 * @property {boolean} [task] a task memory (tasks.js): it may have expired
 *
 * @typedef {{ Variables: { hub: Hub, caller: Caller, memory: Memory, requestId: string } }} Env
 * @typedef {import("hono").Context<Env>} Context
 */

/**
 * The hub of one application.
 * @param {import("./app.js").HubConfig} config
 * @param {import("./app.js").HubRuntime} runtime
 * @returns {Hub}
 */
export function hubOf(config, runtime) {
  const stores = new WeakMap();
  return {
    config,
    runtime,
    metrics: runtime.metrics ?? new Metrics(),
    embedder: runtime.embedder ?? null,
    storeOf(storage) {
      let store = stores.get(storage);
      if (!store) {
        store = memoryStore(storage, { historyDepth: config.historyDepth });
        stores.set(storage, store);
      }
      return store;
    },
    limiter: new RateLimiter(config.ratePerMinute),
    unknownKeys: new UnknownKeys(config),
    lastUsed: new BoundedMap(10_000),
    indexing: new IndexQueue({ embedder: runtime.embedder ?? null, background: runtime.background, log: (line) => console.error(line) }),
    turn: runtime.turn ?? nextTurn,
  };
}
