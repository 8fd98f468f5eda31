// The merge corpus (tests/merge-corpus/, its README says the format): each
// scenario's inputs and what the merge must answer, read once for the
// package's test (merge-corpus.test.mjs) and the git driver's
// (merge-driver.test.mjs). The Rust test (tests/merge_corpus.rs) reads the
// same files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { root } from "./helpers.mjs";

export const corpusDir = join(root, "tests", "merge-corpus");

/** The blocks of a scenario: `[header, text]` for each `@@ header` line. */
function blocks(text) {
  const out = [];
  for (const line of text.split(/(?<=\n)/)) {
    if (line.startsWith("@@ ")) out.push([line.slice(3).trimEnd(), ""]);
    else if (out.length > 0) out.at(-1)[1] += line;
  }
  return out;
}

/**
 * Every scenario: `{ name, base, ours, theirs, clean, content, conflicts, why, git }`;
 * `content` is the merged text (clean) or ours' version (not clean), without
 * a final line break; `conflicts` as the corpus writes them
 * (`[header, "base: …\nours: …\ntheirs: …\n"]`); `why` the reason the merge
 * differs from plain git's, or null; `git` plain git's outcome, "clean" or
 * "conflict".
 */
export function scenarios() {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((file) => {
      const parts = blocks(readFileSync(join(corpusDir, file), "utf8"));
      const get = (name) => parts.find(([h]) => h === name)?.[1];
      const why = parts.find(([h]) => h.startsWith("why "));
      const merged = get("merged");
      return {
        name: file.replace(/\.txt$/, ""),
        base: get("base"),
        ours: get("ours"),
        theirs: get("theirs"),
        clean: merged !== undefined,
        content: (merged ?? get("content")).replace(/\n$/, ""),
        conflicts: parts.filter(([h]) => h.startsWith("conflict ")),
        why: why ? why[0].slice(4) : null,
        git: parts.find(([h]) => h.startsWith("git "))?.[0].slice(4),
      };
    });
}

/** A merge's conflicts as the corpus writes them. */
export function written(conflicts) {
  return conflicts.map((c) => {
    let body = "";
    for (const side of ["base", "ours", "theirs"]) for (const line of c[side]?.lines ?? []) body += `${side}: ${line}\n`;
    return [`conflict ${c.kind} ${c.section}`, body];
  });
}
