// The embedders a Worker build carries beyond what every hub Worker has:
// worker-static.js (wrangler's `static` environment) puts the static
// table's loader here before worker.js reads it; the plain build leaves it
// empty, and MEMDOC_HUB_EMBEDDER=static is refused there.

/** `static`: () => Promise<Embedder>, when the Worker was built with the table. */
export const bundledEmbedders = {};
