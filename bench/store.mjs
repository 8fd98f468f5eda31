// `MemoryStore` through the package: `save` and `load` over the in-memory
// host (adapters/memory.js), on the generated documents (bench/gen_doc.mjs),
// for one build of the package or two side by side in one Node process,
// in alternating rounds.
//
//   node bench/store.mjs [PKG_DIR [OTHER_PKG_DIR]] [--rounds=N]
//
// PKG_DIR defaults to pkg/. Each save stores the document or the document
// plus one entry, in turn, over the revision before (team scope, limits of
// twice the size, so that every save is planned in full and written); each
// load reads the head. A figure is the fastest of N rounds (6 unless told)
// of the median time of one call over about 60 ms, with `planSave` of the
// same update for comparison: what the store adds is reading and writing
// its two records (docs/record-format.md).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { genDoc } from "./gen_doc.mjs";
import { fmt, medianAsync } from "./timing.mjs";

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const dirs = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const rounds = Number(flags.find((f) => f.startsWith("--rounds="))?.slice(9) ?? 6);
if (dirs.length > 2 || !Number.isSafeInteger(rounds) || rounds < 1 || flags.some((f) => !/^--rounds=/.test(f))) {
  console.error("usage: node bench/store.mjs [PKG_DIR [OTHER_PKG_DIR]] [--rounds=N]");
  process.exit(2);
}
if (dirs.length === 0) dirs.push(new URL("../pkg", import.meta.url).pathname);
const builds = await Promise.all(
  dirs.map(async (dir) => ({
    m: await import(pathToFileURL(resolve(dir, "node.js")).href),
    memoryHost: (await import(pathToFileURL(resolve(dir, "adapters/memory.js")).href)).memoryHost,
  })),
);

/** The timed calls of one build on `text`, after a first save. */
async function calls({ m, memoryHost }, text, n) {
  const limits = { soft: 2 * n, hard: 2 * n };
  const store = new m.MemoryStore(memoryHost(), { limits, now: () => "2026-01-01T00:00:00.000Z" });
  const ref = { scope: "team", id: "bench" };
  const versions = [text, `${text}\n- 2026-01-01: one more entry`];
  let revision = (await store.save(ref, text, { baseRevision: 0 })).revision;
  return {
    save: async () => {
      const saved = await store.save(ref, versions[revision % 2], { baseRevision: revision });
      if (saved.status !== "saved") throw new Error(`save: ${saved.status}`);
      revision = saved.revision;
    },
    load: () => store.load(ref),
    planSave: () => m.planSave(versions[revision % 2], { scope: "team", previous: versions[(revision + 1) % 2], limits }),
  };
}

const names = builds.length === 2 ? ["first", "second", "first/second"] : ["time"];
console.log(`| size | call | ${names.join(" | ")} |\n|---|---|${names.map(() => "---|").join("")}`);
for (const n of [1_000, 25_000, 1_000_000]) {
  const text = genDoc(n);
  const timed = await Promise.all(builds.map((b) => calls(b, text, n)));
  for (const op of Object.keys(timed[0])) {
    const best = timed.map(() => Infinity);
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, t] of timed.entries()) best[i] = Math.min(best[i], await medianAsync(t[op]));
    }
    const ratio = best.length === 2 ? ` | ${(best[0] / best[1]).toFixed(2)}x` : "";
    console.log(`| ${n.toLocaleString("en")} | ${op} | ${best.map(fmt).join(" | ")}${ratio} |`);
  }
}
