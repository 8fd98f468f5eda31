// MEMDOC_HUB_EMBEDDER=e5 (docs/HUB.md, "Recall by meaning"): the setting
// needs MEMDOC_HUB_E5_MODEL; the loader builds multilingual-e5-small from
// that file where the target can run it (Deno), and a Worker refuses it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { e5Embedder } from "memdoc/embedders/e5";

import { embedderLoader, workerTarget } from "../src/embedder-setting.js";
import { SettingError, embedderSetting } from "../src/settings.js";

const model = join(fileURLToPath(new URL("../..", import.meta.url)), "target", "models", "multilingual-e5-small", "e5-small-q4.bin");

test("MEMDOC_HUB_EMBEDDER=e5 needs the model file's path", () => {
  assert.throws(() => embedderSetting({ MEMDOC_HUB_EMBEDDER: "e5" }), SettingError);
  assert.deepEqual(embedderSetting({ MEMDOC_HUB_EMBEDDER: "e5", MEMDOC_HUB_E5_MODEL: model }), { kind: "e5", model });
});

test("the loader builds e5 from the file where the target runs it; a Worker refuses it", async () => {
  const setting = embedderSetting({ MEMDOC_HUB_EMBEDDER: "e5", MEMDOC_HUB_E5_MODEL: model });
  assert.throws(() => embedderLoader(setting, workerTarget({})), SettingError);
  const load = embedderLoader(setting, { target: "Deno", fallback: "minilm", e5: (path) => e5Embedder({ model: pathToFileURL(path) }) });
  const embedder = await load();
  assert.equal(embedder.id, "multilingual-e5-small-q4");
  assert.equal(await load(), embedder, "built once");
  const [vector] = await embedder.embed(["团队每周一开会"], "document");
  assert.equal(vector.length, 384);
});
