// The hub's embedder from its settings (MEMDOC_HUB_EMBEDDER, settings.js;
// docs/HUB.md, "Recall by meaning"): a loader that builds it once on first
// use, or null for recall by words alone. Each target says what it has:
// the Worker an `AI` binding (Workers AI), and the static table when it was
// built with it (worker-static.js); Deno the MiniLM and static embedders
// (MiniLM's weights are too big for a Worker isolate, so the Worker never
// imports it).
import { openAiEmbedder } from "memdoc/embedders/openai";
import { workersAiEmbedder } from "memdoc/embedders/workers-ai";

import { SettingError } from "./settings.js";

/**
 * @param {{ kind: string, baseURL?: string, apiKey?: string, model?: string, dimensions?: number } | null} setting
 *   (`model`: the model's name for openai, the model file's path for e5)
 *   config.embedder (null: the target's default)
 * @param {{ target: string, fallback: string, ai?: any, minilm?: () => Promise<any>, static?: () => Promise<any>, e5?: (path: string) => Promise<any>, staticMissing?: string }} here
 *   `staticMissing`: what to do instead where this target has no static table
 * @returns {(() => Promise<import("memdoc").Embedder>) | null}
 * @throws {SettingError} for an embedder this target cannot run
 */
export function embedderLoader(setting, here) {
  const kind = setting?.kind ?? here.fallback;
  let made;
  const once = (make) => () => (made ??= Promise.resolve().then(make).catch((error) => {
    made = undefined;
    throw error;
  }));
  if (kind === "none") return null;
  if (kind === "openai") {
    const { baseURL, apiKey, model, dimensions } = setting;
    return once(() => openAiEmbedder({ baseURL, apiKey, model, dimensions }));
  }
  if (kind === "workers-ai") {
    if (!here.ai) throw new SettingError(`MEMDOC_HUB_EMBEDDER=workers-ai needs an AI binding ([ai] binding = "AI" in wrangler.toml), which the ${here.target} hub does not have`);
    return once(() => workersAiEmbedder(here.ai));
  }
  if (kind === "e5") {
    if (!here.e5) throw new SettingError(`MEMDOC_HUB_EMBEDDER=e5 does not run on ${here.target} (the 72 MB model file and the model it becomes do not fit a Worker isolate's 128 MB): use workers-ai with @cf/baai/bge-m3, openai or none`);
    return once(() => here.e5(setting.model));
  }
  if (kind === "static") {
    if (!here.static) throw new SettingError(`MEMDOC_HUB_EMBEDDER=static needs the static table in the ${here.target} hub: ${here.staticMissing}`);
    return once(here.static);
  }
  if (!here.minilm) throw new SettingError(`MEMDOC_HUB_EMBEDDER=minilm does not run on ${here.target} (a Worker isolate has 128 MB; the model's weights and runtime do not fit): use static (the Worker built with the static table), workers-ai, openai or none`);
  return once(here.minilm);
}

/**
 * What a Worker has for embedderLoader: Workers AI with an `AI` binding (its
 * default then), and the static table in the build that carries it
 * (`bundled.static`, worker-static.js).
 */
export function workerTarget({ ai, bundled = {} }) {
  return {
    target: "Workers",
    fallback: ai ? "workers-ai" : "none",
    ai,
    static: bundled.static,
    staticMissing: "this Worker was built without it; deploy the build that carries it (`wrangler deploy --env static`, hub/README.md: the table adds about 7 MiB gzipped to the upload), or use workers-ai, openai or none",
  };
}
