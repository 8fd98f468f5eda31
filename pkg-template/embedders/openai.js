// An embedder over the `/v1/embeddings` API (docs/API.md, "Embedders"):
// OpenAI, Ollama, vLLM, LM Studio, Workers AI's REST endpoint. The vectors
// are put in the order of the texts by their `index`; `dimensions` is sent
// only when given.

/** The most texts one request embeds. */
export const BATCH = 100;

export function openAiEmbedder(options = {}) {
  const { baseURL, apiKey, model, dimensions } = options;
  if (typeof baseURL !== "string" || typeof model !== "string" || model === "") {
    throw invalid("openAiEmbedder: expected { baseURL, model } strings (apiKey and dimensions optional)");
  }
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions > 0)) {
    throw invalid(`openAiEmbedder: dimensions ${dimensions} is not a positive whole number`);
  }
  const fetch = options.fetch ?? globalThis.fetch;
  const url = `${baseURL.replace(/\/+$/, "")}/embeddings`;
  return {
    // A shortened vector is another embedding: its own id, its own cache.
    id: dimensions === undefined ? model : `${model}@${dimensions}`,
    dimensions: dimensions ?? null,
    async embed(texts) {
      const out = [];
      for (let at = 0; at < texts.length; at += BATCH) {
        const input = texts.slice(at, at + BATCH);
        const body = { model, input, encoding_format: "float" };
        if (dimensions !== undefined) body.dimensions = dimensions;
        const headers = { "content-type": "application/json" };
        if (apiKey) headers.authorization = `Bearer ${apiKey}`;
        const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
        if (!response.ok) {
          const detail = await response.text().catch(() => "");
          throw new Error(`${url}: HTTP ${response.status} ${detail.slice(0, 200)}`.trim());
        }
        const data = (await response.json())?.data;
        if (!Array.isArray(data) || data.length !== input.length) {
          throw new Error(`${url}: ${data?.length ?? "no"} embeddings for ${input.length} texts`);
        }
        const sorted = [...data].sort((a, b) => a.index - b.index);
        for (const item of sorted) out.push(Float32Array.from(item.embedding));
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
