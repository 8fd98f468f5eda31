// Two builds of the package side by side in one Node process: every export
// that takes a whole document, on the generated documents (bench/gen_doc.mjs),
// on the same documents in ASCII and on documents of many short sections
// titled `Café N`, with alternating rounds so that both
// builds meet the same load. For a change to the boundary, where the
// difference between the builds is smaller than the drift between two runs
// of `npm run bench`.
//
//   node bench/ab.mjs BEFORE_PKG_DIR [AFTER_PKG_DIR] [--rounds=N] [--only=OP,...] [--sizes=N,...]
//
// AFTER defaults to pkg/. Each figure is the fastest of N rounds (6 unless
// told) of the median time of one call over about 60 ms; `--only` names the
// calls to time (`--only=render,validate`), `--sizes` the documents' sizes
// in code points (1,000, 25,000 and 1,000,000 unless told).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";
import { fmt, median } from "./timing.mjs";

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const [before, after = new URL("../pkg", import.meta.url).pathname] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const flag = (name) => flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(flag("rounds") ?? 6);
const only = flag("only")?.split(",");
const sizes = (flag("sizes") ?? "1000,25000,1000000").split(",").map(Number);
if (
  !before ||
  !Number.isSafeInteger(rounds) ||
  rounds < 1 ||
  !sizes.every((n) => Number.isSafeInteger(n) && n > 0) ||
  flags.some((f) => !/^--(rounds|only|sizes)=/.test(f))
) {
  console.error("usage: node bench/ab.mjs BEFORE_PKG_DIR [AFTER_PKG_DIR] [--rounds=N] [--only=OP,...] [--sizes=N,...]");
  process.exit(2);
}
const load = (dir) => import(pathToFileURL(resolve(dir, "node.js")).href);
const [A, B] = [await load(before), await load(after)];

/** The calls of `npm run bench`, on the text `t` of about `n` code points. */
const calls = (m, t, n) => {
  const previous = t.slice(0, t.lastIndexOf("\n"));
  return {
    parse: () => m.parse(t),
    render: () => m.render(t),
    validate: () => m.validate(t, { scope: "team", previous }),
    planSave: () => m.planSave(t, { scope: "team", previous, limits: { soft: 2 * n, hard: 2 * n } }),
    injectionBlock: () => m.injectionBlock(t, { scope: "team" }),
    merge: () => m.merge(previous, t, previous.slice(0, previous.lastIndexOf("\n"))),
    compact: () => m.compact(t, { scope: "team", target: Math.floor(t.length / 2) }),
    recall: () => m.recall(t, "postgres migration latency", { scope: "team", budget: Math.max(4000, Math.floor(t.length / 10)) }),
    expire: () => m.expire(t, { today: "2026-01-01", policies: [{ section: t.match(/^## (.+)$/m)?.[1] ?? "Log", maxAgeDays: 30 }] }),
    // The same two calls when they have nothing to do: the memory fits, no
    // entry is old enough.
    compactFits: () => m.compact(t, { scope: "team", target: 2 * t.length }),
    expireNone: () => m.expire(t, { today: "2026-01-01", policies: [{ section: t.match(/^## (.+)$/m)?.[1] ?? "Log", maxAgeDays: 36500 }] }),
  };
};

console.log("| text | size | op | before | after | before/after |\n|---|---|---|---|---|---|");
for (const n of sizes) {
  const generated = genDoc(n);
  // The same document with each non-ASCII character replaced by `x`.
  const ascii = [...generated].map((c) => (c.charCodeAt(0) < 128 ? c : "x")).join("");
  // Many short sections whose titles are not ASCII (each is folded by the
  // host), about as long.
  const titles = Array.from({ length: Math.ceil(n / 36) }, (_, i) => `## Café ${i}\n- 2025-01-01: entry ${i}`).join("\n");
  for (const [name, text] of [["generated", generated], ["ASCII", ascii], ["titles", titles]]) {
    const [a, b] = [calls(A, text, n), calls(B, text, n)];
    for (const op of Object.keys(a).filter((op) => !only || only.includes(op))) {
      let [ta, tb] = [Infinity, Infinity];
      for (let round = 0; round < rounds; round += 1) {
        ta = Math.min(ta, median(a[op]));
        tb = Math.min(tb, median(b[op]));
      }
      console.log(`| ${name} | ${n.toLocaleString("en")} | ${op} | ${fmt(ta)} | ${fmt(tb)} | ${(ta / tb).toFixed(2)}x |`);
    }
  }
}
