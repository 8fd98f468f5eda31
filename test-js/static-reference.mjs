// The static embedder's vectors computed independently of its Rust code:
// the table parsed here (embedders/minilm/src/static_table.rs describes its
// bytes) and the token ids Hugging Face's tokenizers gave
// (embedders/minilm/tests/reference.json): the rows of the tokens between
// [CLS] and [SEP], each times its scale, summed and scaled to length 1.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { root, staticDir } from "./helpers.mjs";

export const tablePath = join(staticDir, "all-MiniLM-L6-v2-static-256.i8");

/** The reference cases whose tokens were not cut at MiniLM's 256, with their static vectors. */
export function staticReference() {
  const bytes = readFileSync(tablePath);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows = view.getUint32(8, true);
  const dims = view.getUint32(12, true);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + 16 + rows * 4, rows * dims);
  const reference = JSON.parse(readFileSync(join(root, "embedders", "minilm", "tests", "reference.json"), "utf8"));
  return reference.cases
    .filter((c) => c.tokens.length < reference.max_seq_length)
    .map((c) => {
      const sum = new Float64Array(dims);
      for (const id of c.tokens.slice(1, -1)) {
        const scale = view.getFloat32(16 + id * 4, true);
        for (let d = 0; d < dims; d++) sum[d] += values[id * dims + d] * scale;
      }
      const norm = Math.hypot(...sum) || 1;
      return { text: c.text, vector: Array.from(sum, (v) => v / norm) };
    });
}

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
/** The cosine of two vectors; 1 for two zero vectors (a text without tokens). */
export function cosine(a, b) {
  const norms = dot(a, a) * dot(b, b);
  if (norms === 0) return dot(a, a) === dot(b, b) ? 1 : 0;
  return dot(a, b) / Math.sqrt(norms);
}
