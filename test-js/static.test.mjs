// memdoc/embedders/static through the built package, in Node: the table the
// package ships has the SHA-256 committed in embedders/minilm/static.sha256,
// and the embedder (Rust, in the embedders' WebAssembly module) gives the
// vectors computed independently from the table and Hugging Face's token ids
// (test-js/static-reference.mjs).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { staticEmbedder } from "memdoc/embedders/static";

import { root } from "./helpers.mjs";
import { cosine, staticReference, tablePath } from "./static-reference.mjs";

test("the packaged table is the committed one: its SHA-256, about 8 MB", () => {
  const expected = readFileSync(join(root, "embedders", "minilm", "static.sha256"), "utf8").split(/\s+/)[0];
  assert.equal(createHash("sha256").update(readFileSync(tablePath)).digest("hex"), expected);
  const size = statSync(tablePath).size;
  assert.ok(size > 7_000_000 && size < 9_000_000, `${size} bytes`);
});

test("the packaged embedder: id, dimensions, loaded once, the reference's vectors", async () => {
  const embedder = await staticEmbedder();
  assert.equal(embedder.id, "all-MiniLM-L6-v2-static-256-v2");
  assert.equal(embedder.dimensions, 256);
  assert.equal(await staticEmbedder(), embedder, "every call without options shares one table");
  const reference = staticReference();
  assert.ok(reference.length >= 10);
  const vectors = await embedder.embed(reference.map((c) => c.text), "document");
  let worst = 1;
  reference.forEach((c, i) => {
    assert.ok(vectors[i] instanceof Float32Array);
    assert.equal(vectors[i].length, 256);
    worst = Math.min(worst, cosine(vectors[i], c.vector));
  });
  console.log(`static: worst cosine against the independent computation ${worst.toFixed(7)} over ${reference.length} texts`);
  assert.ok(worst >= 0.99999, `worst cosine ${worst}`);
});

test("related texts lie nearer than unrelated ones; queries and documents alike", async () => {
  const embedder = await staticEmbedder();
  const [db, postgres, tuesday] = await embedder.embed(
    ["which relational database do we run?", "Services use PostgreSQL 16", "Production releases ship on Tuesdays"],
    "document",
  );
  assert.ok(cosine(db, postgres) > cosine(db, tuesday), `${cosine(db, postgres)} vs ${cosine(db, tuesday)}`);
  const [asQuery] = await embedder.embed(["which relational database do we run?"], "query");
  assert.deepEqual(asQuery, db);
  const [empty] = await embedder.embed([""], "query");
  assert.ok(empty.every((v) => v === 0), "a text without tokens is the zero vector");
});

test("bad input and a bad table give coded errors", async () => {
  const embedder = await staticEmbedder();
  await assert.rejects(embedder.embed("text", "query"), { code: "embedder/input" });
  await assert.rejects(embedder.embed(["text"], "passage"), { code: "embedder/input" });
  await assert.rejects(staticEmbedder(null), { code: "embedder/options" });
  await assert.rejects(staticEmbedder({ table: new Uint8Array(100) }), { code: "embedder/weights" });
  const truncated = readFileSync(tablePath).subarray(0, 1_000_000);
  await assert.rejects(staticEmbedder({ table: truncated }), { code: "embedder/weights" });
});
