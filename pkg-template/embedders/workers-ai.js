// An embedder over Cloudflare Workers AI (docs/API.md, "Embedders"): the
// `AI` binding's `run(model, { text })`, at most 100 texts a call.
// `@cf/baai/bge-small-en-v1.5` by default (English); `@cf/baai/bge-m3` for
// memories in other languages.

/** The default model. */
export const DEFAULT_MODEL = "@cf/baai/bge-small-en-v1.5";

/** The most texts one call embeds. */
export const BATCH = 100;

/** The length of each model's vectors. */
export const MODEL_DIMENSIONS = {
  "@cf/baai/bge-small-en-v1.5": 384,
  "@cf/baai/bge-base-en-v1.5": 768,
  "@cf/baai/bge-large-en-v1.5": 1024,
  "@cf/baai/bge-m3": 1024,
};

/**
 * The instruction BGE's English v1.5 models are trained to see before a
 * query that looks for passages (their model card); documents go as they are.
 */
const BGE_QUERY = "Represent this sentence for searching relevant passages: ";

export function workersAiEmbedder(ai, options = {}) {
  if (ai === null || typeof ai !== "object" || typeof ai.run !== "function") {
    throw invalid("workersAiEmbedder: expected the Workers AI binding (env.AI), with run(model, input)");
  }
  const model = options.model ?? DEFAULT_MODEL;
  const dimensions = options.dimensions ?? MODEL_DIMENSIONS[model];
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw invalid(`workersAiEmbedder: the dimensions of ${JSON.stringify(model)} are not known; pass { dimensions }`);
  }
  const instruction = /^@cf\/baai\/bge-(small|base|large)-en-v1\.5$/.test(model) ? BGE_QUERY : "";
  return {
    id: model,
    dimensions,
    async embed(texts, kind) {
      const input = kind === "query" ? texts.map((t) => instruction + t) : texts;
      const out = [];
      for (let at = 0; at < input.length; at += BATCH) {
        const batch = input.slice(at, at + BATCH);
        const response = await ai.run(model, { text: batch });
        const data = response?.data;
        if (!Array.isArray(data) || data.length !== batch.length) {
          throw new Error(`Workers AI ${model} returned ${data?.length ?? "no"} vectors for ${batch.length} texts`);
        }
        for (const vector of data) out.push(Float32Array.from(vector));
      }
      return out;
    },
  };
}

function invalid(message) {
  const error = new TypeError(message);
  error.code = "options/invalid";
  return error;
}
