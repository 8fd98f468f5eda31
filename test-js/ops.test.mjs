// merge and compact (docs/ops.md) through the built package: shapes, UTF-16
// ranges into the right input, and coded errors for bad arguments.
import assert from "node:assert/strict";
import { test } from "node:test";

import { compact, errorCodes, merge, parse, render } from "memdoc";
import { covered, thrown } from "./helpers.mjs";

function assertCode(fn, code, what) {
  const error = thrown(fn);
  assert.ok(error instanceof Error, `${what}: should throw an Error, got ${error}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(errorCodes().includes(code));
}

const base = "## Notes 😀\nshared 記憶 note\nother\n\n## Gone\n- 2025-01-01: x";
const ours = "intro line\n## Notes 😀\nours 😀 edit\nother\n\n## Gone\n- 2025-01-01: x\n- 2025-01-02: y";
const theirs = "## Notes 😀\ntheirs edit\nother";

test("merge: a clean merge keeps both sides' additions", () => {
  const b = "## Facts\n- 2025-01-01: a";
  const result = merge(b, `${b}\n- 2025-01-02: ours`, `## Facts\n- 2025-01-01: a\n- 2025-01-03: theirs\n\n## New\nnote`);
  assert.deepEqual(result, {
    content: "## Facts\n- 2025-01-01: a\n- 2025-01-02: ours\n- 2025-01-03: theirs\n\n## New\nnote",
    clean: true,
    conflicts: [],
    dropped: [],
  });
  assert.equal(render(result.content), result.content, "the result is canonical");
});

test("merge identities: one side unchanged gives the other, canonical", () => {
  const b = "## A\n- 2025-01-01:   x  \n\n## B\nraw";
  const x = "## A\n- 2025-01-01: x\n- 2025-01-02: y";
  assert.equal(merge(b, x, b).content, render(x));
  assert.equal(merge(b, b, x).content, render(x));
  assert.equal(merge(b, x, x).content, render(x));
  assert.ok(merge(b, x, b).clean && merge(b, b, x).clean && merge(b, x, x).clean);
});

test("merge conflicts: kinds, sides and UTF-16 ranges into each side's input", () => {
  const result = merge(base, ours, theirs);
  assert.equal(result.clean, false);
  assert.equal(result.content, "## Notes 😀\nours 😀 edit\nother\n\n## Gone\n- 2025-01-01: x\n- 2025-01-02: y", "content follows ours");
  assert.deepEqual(Object.keys(result).sort(), ["clean", "conflicts", "content", "dropped"]);
  const [lines, removed] = result.conflicts;
  assert.equal(result.conflicts.length, 2);

  assert.equal(lines.kind, "lines");
  assert.equal(lines.section, "Notes 😀");
  assert.deepEqual(lines.base.lines, ["shared 記憶 note"]);
  assert.deepEqual(lines.ours.lines, ["ours 😀 edit"]);
  assert.deepEqual(lines.theirs.lines, ["theirs edit"]);
  assert.equal(covered(base, lines.base.range), "shared 記憶 note");
  assert.equal(covered(ours, lines.ours.range), "ours 😀 edit");
  assert.equal(covered(theirs, lines.theirs.range), "theirs edit");

  assert.equal(removed.kind, "section-removed");
  assert.equal(removed.section, "Gone");
  assert.equal(removed.theirs, null, "theirs removed the section");
  assert.deepEqual(removed.base.lines, ["## Gone", "- 2025-01-01: x"]);
  assert.deepEqual(removed.ours.lines, ["## Gone", "- 2025-01-01: x", "- 2025-01-02: y"]);
  assert.equal(covered(base, removed.base.range), "## Gone\n- 2025-01-01: x");
  assert.equal(covered(ours, removed.ours.range), "## Gone\n- 2025-01-01: x\n- 2025-01-02: y");

  assert.equal(result.dropped.length, 1);
  const [dropped] = result.dropped;
  assert.equal(dropped.side, "ours");
  assert.equal(dropped.text, "intro line");
  assert.equal(covered(ours, dropped.range), "intro line");
});

test("merge: a title rewritten differently on both sides is a title conflict", () => {
  const b = "## Team Decisions\n- 2025-01-01: x";
  const o = "## Team decisions\n- 2025-01-01: x";
  const t = "## TEAM DECISIONS\n- 2025-01-01: x";
  const [conflict] = merge(b, o, t).conflicts;
  assert.equal(conflict.kind, "title");
  assert.deepEqual([conflict.base.lines, conflict.ours.lines, conflict.theirs.lines], [["## Team Decisions"], ["## Team decisions"], ["## TEAM DECISIONS"]]);
  assert.equal(covered(t, conflict.theirs.range), "## TEAM DECISIONS");
});

test("merge: a non-string argument is input/not-a-string, naming it", () => {
  for (const bad of [undefined, null, 42, {}, ["## A"]]) {
    assertCode(() => merge(bad, "", ""), "input/not-a-string", "base");
    assertCode(() => merge("", bad, ""), "input/not-a-string", "ours");
    assertCode(() => merge("", "", bad), "input/not-a-string", "theirs");
  }
  assert.match(thrown(() => merge("", "", 1)).message, /theirs/);
  assert.deepEqual(merge("\u0000\ud800", "", "").clean, true, "every string merges");
});

const text = "pre\n## Facts 😀\n- 2025-01-01: a\n- 2025-01-02: A\n\n## Questions\n- 2025-01-03: q?\n\n## facts 😀\n- 2025-01-04: b";

test("compact: merged sections, removed entries and dropped lines, with UTF-16 ranges", () => {
  const c = compact(text, { target: 40, today: "2025-01-02", scope: "team" });
  assert.deepEqual(Object.keys(c).sort(), ["after", "before", "content", "dropped", "fits", "merged", "removed", "target"]);
  assert.equal(c.content, "## Facts 😀\n- 2025-01-04: b\n\n## Questions");
  assert.equal(c.fits, true);
  assert.equal(c.target, 40);
  assert.equal(c.after, [...c.content].length);
  assert.equal(c.before, [...render(text)].length);

  assert.equal(c.merged.length, 1);
  const [m] = c.merged;
  assert.deepEqual([m.from, m.into], ["facts 😀", "Facts 😀"]);
  assert.equal(covered(text, m.fromRange), "## facts 😀");
  assert.equal(covered(text, m.intoRange), "## Facts 😀");

  assert.deepEqual(
    c.removed.map((r) => [r.section, r.date, r.text, r.reason, r.priority]),
    [
      ["Facts 😀", "2025-01-01", "a", "duplicate", "facts"],
      ["Questions", "2025-01-03", "q?", "oldest", "transient"],
      ["Facts 😀", "2025-01-02", "A", "oldest", "facts"],
    ],
  );
  for (const r of c.removed) assert.equal(covered(text, r.range), `- ${r.date}: ${r.text}`);
  const kept = c.removed[0].duplicateOf;
  assert.equal(kept.kind, "entry");
  assert.equal(kept.text, "A");
  assert.equal(covered(text, kept.range), "- 2025-01-02: A");
  assert.equal(c.removed[1].duplicateOf, null);

  assert.deepEqual(c.dropped.map((d) => [d.kind, d.text]), [["raw", "pre"]]);
  assert.equal(covered(text, c.dropped[0].range), "pre");

  // Nothing is lost: every entry is kept or reported.
  const entries = parse(text).sections.flatMap((s) => s.lines.filter((l) => l.kind === "entry"));
  const keptCount = c.content.split("\n").filter((l) => l.startsWith("- ")).length;
  assert.equal(keptCount + c.removed.length, entries.length);
});

test("compact: a document that fits comes back canonical, untouched; defaults apply", () => {
  const c = compact("##  A  \n- 2025-01-01: x   \n\n\n");
  assert.deepEqual(c, { content: "## A\n- 2025-01-01: x", fits: true, target: 25000, before: 20, after: 20, merged: [], removed: [], dropped: [] });
  assert.deepEqual(compact("## A\n- 2025-01-01: x", null), c);
  assert.deepEqual(compact(c.content, { scope: null, target: null, today: null }), c);
  const tiny = compact("## A\n- 2025-01-01: x", { target: 1 });
  assert.equal(tiny.fits, false, "even without entries the heading is larger than 1");
  assert.equal(tiny.content, "## A");
});

test("compact: bad arguments throw coded errors", () => {
  for (const bad of [undefined, null, 42, {}]) assertCode(() => compact(bad), "input/not-a-string", `text ${String(bad)}`);
  const cases = [
    [{ target: "100" }, "options/invalid"],
    [{ scope: 5 }, "options/invalid"],
    [{ today: 20250101 }, "options/invalid"],
    ["team", "options/invalid"],
    [{ scope: "everyone" }, "options/invalid-scope"],
    [{ scope: "Team" }, "options/invalid-scope"],
    [{ target: 0 }, "options/invalid-target"],
    [{ target: -1 }, "options/invalid-target"],
    [{ target: 1.5 }, "options/invalid-target"],
    [{ target: NaN }, "options/invalid-target"],
    [{ target: Infinity }, "options/invalid-target"],
    [{ target: 1e16 }, "options/invalid-target"],
    [{ today: "2025-02-29" }, "options/invalid-date"],
    [{ today: "2025-1-01" }, "options/invalid-date"],
    [{ today: "" }, "options/invalid-date"],
  ];
  for (const [options, code] of cases) assertCode(() => compact("## A", options), code, JSON.stringify(options));
});
