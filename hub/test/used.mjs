// What the hub's tests used that no request log line may hold (docs/HUB.md,
// "Observability"): every key, token and secret they sent or were handed,
// and every memory content they saved. With MEMDOC_HUB_TEST_USED set (the
// hub suite's step, hub/test/suite.mjs), each is appended to that file, one
// JSON string a line, for the suite's last check; without it, nothing.
import { appendFileSync } from "node:fs";

const file = process.env.MEMDOC_HUB_TEST_USED;
/** What this process recorded already: each value once. */
const seen = new Set();

function record(values) {
  const fresh = values.filter((v) => !seen.has(v));
  for (const v of fresh) seen.add(v);
  if (fresh.length > 0) appendFileSync(file, fresh.map((v) => `${JSON.stringify(v)}\n`).join(""));
}

/**
 * Values this long or longer are distinctive enough to look for: every key
 * and token the hub accepts, not a test's made-up `"nope"` or a content's
 * `## Notes`.
 */
const DISTINCTIVE = 12;

/** Record `value` (a key, a token) when it is a distinctive string. */
export function usedSecret(value) {
  if (file && typeof value === "string" && value.length >= DISTINCTIVE) record([value]);
}

/** Record the distinctive lines of a memory content. */
export function usedContent(text) {
  if (!file || typeof text !== "string") return;
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l.length >= DISTINCTIVE);
  record(lines);
}
