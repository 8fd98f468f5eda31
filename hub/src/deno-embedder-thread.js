// The Deno hub's in-process embedder (MiniLM, the static table or
// multilingual-e5-small) in a thread of its own (a Web Worker), so that
// embedding a large memory never holds the thread that answers every
// team's requests, and indexing takes at most INDEX_SHARE of the thread's
// time (docs/HUB.md, "Recall by meaning"). `embedderThread(kind)` runs in
// the server and gives an Embedder whose calls are messages to the thread;
// the same file is the thread's module, which loads the embedder once and
// answers each call.

/**
 * The share of the embedder's thread that indexing takes at most: the
 * thread and the requests' share the machine's cores (two, often), and a
 * backlog of large memories would otherwise keep one of them busy.
 */
export const INDEX_SHARE = 0.5;

/**
 * An Embedder whose work runs in a new thread; resolves once the thread
 * loaded it (rejects with its load error).
 * @param {"minilm" | "static" | "e5"} kind
 * @param {string} [model] e5: the model file's URL
 * @returns {Promise<import("memdoc").Embedder>}
 */
export function embedderThread(kind, model) {
  const thread = new Worker(import.meta.url, { type: "module" });
  const waiting = new Map();
  let next = 0;
  thread.onmessage = ({ data }) => {
    const call = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error === undefined) call?.resolve(data);
    else call?.reject(Object.assign(new Error(data.error), data.code ? { code: data.code } : {}));
  };
  thread.onerror = (event) => {
    event.preventDefault();
    for (const call of waiting.values()) call.reject(new Error(`the embedder's thread failed: ${event.message}`));
    waiting.clear();
  };
  const ask = (message) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      thread.postMessage({ id, kind, model, ...message });
    });
  // The indexing's share of the thread: after each call for documents, the
  // next waits as long as it took; a query's never waits.
  let resting = Promise.resolve();
  const embedDocuments = async (texts) => {
    await resting;
    const started = performance.now();
    try {
      return (await ask({ call: "embed", texts, as: "document" })).vectors;
    } finally {
      const took = performance.now() - started;
      resting = new Promise((resolve) => setTimeout(resolve, (took * (1 - INDEX_SHARE)) / INDEX_SHARE));
    }
  };
  return ask({ call: "load" }).then(({ model }) => ({
    id: model.id,
    dimensions: model.dimensions,
    embed: async (texts, as) => (as === "document" ? embedDocuments(texts) : (await ask({ call: "embed", texts, as })).vectors),
  }));
}

// In the thread: the embedder, loaded on the first message.
if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  let loading = null;
  const load = async (kind, model) => {
    if (kind === "minilm") return (await import("memdoc/embedders/minilm")).miniLmEmbedder();
    if (kind === "e5") return (await import("memdoc/embedders/e5")).e5Embedder({ model: new URL(model) });
    return (await import("memdoc/embedders/static")).staticEmbedder();
  };
  self.onmessage = async ({ data }) => {
    try {
      const model = await (loading ??= load(data.kind, data.model));
      if (data.call === "load") return self.postMessage({ id: data.id, model: { id: model.id, dimensions: model.dimensions } });
      const vectors = (await model.embed(data.texts, data.as)).map((v) => (v instanceof Float32Array ? v : Float32Array.from(v)));
      self.postMessage({ id: data.id, vectors }, vectors.map((v) => v.buffer));
    } catch (error) {
      if (data.call === "load") loading = null;
      self.postMessage({ id: data.id, error: error?.message ?? String(error), code: typeof error?.code === "string" ? error.code : undefined });
    }
  };
}
