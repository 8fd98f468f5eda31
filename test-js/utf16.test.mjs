// Ranges are UTF-16 (JavaScript string) positions; sizes are code points.
import assert from "node:assert/strict";
import { test } from "node:test";

import { compact, expire, injectionBlock, merge, parse, planSave, render, usage, validate } from "memdoc";
import { covered } from "./helpers.mjs";

// `compact` of a memory that fits and `expire` with nothing old enough hand
// back its canonical form, as `render` does (bindings/wasm/src/wasm/ops.rs, recall.rs).
const compacted = (text) => compact(text, { target: 100 * text.length + 100 }).content;
const expired = (text) => expire(text, { today: "2025-06-01", policies: [{ section: "A", maxAgeDays: 36500 }] }).content;

const tricky = [
  ["emoji", "😀"],
  ["é precomposed", "é"],
  ["e + combining acute", "e\u0301"],
  ["CJK", "記憶の文書"],
  ["flag and ZWJ family", "🇫🇷👨‍👩‍👧"],
];

test("diagnostic ranges slice exactly the flagged text after emoji, é and CJK", () => {
  for (const [what, s] of tricky) {
    const text = `## Notes ${s}\n- 2025-01-01: ${s} before\n- ${s} not an entry\n${s}- also ${s}\n- 2025-02-30: bad date ${s}`;
    const flagged = validate(text).diagnostics.filter((d) => d.code.startsWith("entry/"));
    assert.deepEqual(
      flagged.map((d) => [d.code, covered(text, d.range)]),
      [
        ["entry/nonstandard", `- ${s} not an entry`],
        ["entry/impossible-date", "2025-02-30"],
      ],
      what,
    );
    const dup = `## ${s} A\n- 2025-01-01: x\n\n## ${s} a!\n- 2025-01-02: y`;
    const d = validate(dup).diagnostics.find((x) => x.code === "structure/duplicate-heading");
    assert.ok(d, `${what}: duplicate heading should be flagged`);
    assert.equal(covered(dup, d.range), `## ${s} a!`, what);
  }
});

test("parse ranges slice the heading and each line, on every line of a mixed text", () => {
  const text = "😀 intro\r\n## 記憶 😀\r\n  - 2025-01-01: café 😀\r\nraw é\n## B\r- 2025-01-02: 👨‍👩‍👧 z";
  const doc = parse(text);
  assert.equal(covered(text, doc.preamble[0].range), "😀 intro");
  assert.equal(covered(text, doc.sections[0].range), "## 記憶 😀");
  assert.deepEqual(doc.sections[0].lines.map((l) => covered(text, l.range)), ["- 2025-01-01: café 😀", "raw é"]);
  assert.equal(covered(text, doc.sections[1].range), "## B");
  assert.equal(covered(text, doc.sections[1].lines[0].range), "- 2025-01-02: 👨‍👩‍👧 z");
  const entry = doc.sections[0].lines[0];
  assert.deepEqual(entry.range.start, { line: 3, column: 3, offset: text.indexOf("- 2025-01-01") });
});

test("planSave diagnostics are ranges in the text passed in", () => {
  const previous = "## Team 😀\n- 2025-01-01: a";
  const updated = `${previous}\n\n## Préférences\n- 2025-01-02: b`;
  const plan = planSave(updated, { scope: "team", previous, forbiddenTeamHeadings: ["preferences", "Préférences"] });
  const d = plan.diagnostics.find((x) => x.code === "scope/personal-heading");
  assert.ok(d, JSON.stringify(plan.diagnostics));
  assert.equal(covered(updated, d.range), "## Préférences");
});

test("a 25k-character document with emoji: chars counts code points, not UTF-16 units", () => {
  let text = "## Journal 📓\n";
  let n = 0;
  while ([...text].length <= 25_100) {
    n += 1;
    text += `- 2025-01-${String((n % 28) + 1).padStart(2, "0")}: 😀 entry ${n} with é and 記憶\n`;
  }
  const canonical = render(text);
  const u = usage(text);
  assert.equal(u.chars, [...canonical].length);
  assert.ok(u.chars < canonical.length, "emoji are one code point but two UTF-16 units");
  assert.equal(u.utf8Bytes, Buffer.byteLength(canonical, "utf8"));
  assert.ok(u.chars > 25_000);
  assert.equal(u.level, "hard");
  const report = validate(text);
  assert.equal(report.ok, false);
  assert.deepEqual(report.diagnostics.map((d) => d.code), ["size/hard-limit"]);
  const last = parse(text).sections[0].lines.at(-1);
  assert.equal(covered(text, last.range), text.trimEnd().split("\n").at(-1));
  assert.equal(planSave(text).status, "rejected");
});

test("every text crosses into the engine whole: ASCII, then é, CJK, emoji or a lone surrogate at any position", () => {
  // Texts enter through the host's encoder, first as if ASCII and then the
  // rest: the first non-ASCII character may fall anywhere, and the text
  // after it must arrive as written. A result that repeats the text comes
  // back as a slice of it, cut at UTF-16 positions.
  for (const odd of ["é", "界", "🙂", "\uD800"]) {
    for (const at of [0, 1, 7, 63, 64, 1000]) {
      const line = "x".repeat(at) + odd + " tail";
      const text = `## A\n${line}\n- 2025-01-01: ${odd}end`;
      const expected = odd === "\uD800" ? text.replaceAll("\uD800", "\uFFFD") : text;
      assert.equal(render(text), expected, `${JSON.stringify(odd)} after ${at} characters`);
      assert.equal(render(`${text} \n\n`), expected, "without the trailing white space");
      assert.equal(validate(`${text}\n`).canonical, expected);
      assert.equal(planSave(`${text}\n`).content, expected);
      assert.equal(compacted(`${text} \n\n`), expected);
      assert.equal(expired(`${text} \n\n`), expected);
      assert.equal(usage(text).chars, [...expected].length);
      assert.equal(
        injectionBlock(`\n${text}\n`, { scope: "team" }),
        `<team_memory chars="${[...expected].length}" limit="25000">\n${expected}\n</team_memory>`,
      );
    }
  }
});

test("a result that differs from the text in one place is the text around it and that place converted", () => {
  // What a result has in common with the text at its start and its end
  // comes back as slices of the text, and only the part between them is
  // converted: the cuts fall between characters of every width.
  for (const odd of ["é", "界", "🙂"]) {
    const before = `## A ${odd}\n- 2025-01-01: ${odd} one`;
    const after = `- 2025-01-03: three ${odd}\n\n## B\n${odd}`;
    const cases = [
      // A legacy entry in the middle, its marker rendered away.
      [`${before}\n- (2025-01-02) [fact] ${odd}two\n${after}`, `${before}\n- 2025-01-02: ${odd}two\n${after}`],
      // Trailing white space in the middle, next to the odd character.
      [`${before}${odd}   \n${after}`, `${before}${odd}\n${after}`],
      // A preamble at the start, which the canonical form drops.
      [`Sure ${odd}:\n${before}\n${after}`, `${before}\n${after}`],
      // Blank lines at the end of a section, which it drops too.
      [`${before}\n\n\n\n## C ${odd}`, `${before}\n\n## C ${odd}`],
      // Nothing kept (a heading must start its line): rejected, and the
      // content is the previous one, none.
      [`  ## ${odd}`, ``],
    ];
    for (const [text, expected] of cases) {
      assert.equal(render(text), expected, JSON.stringify(text));
      assert.equal(validate(text).canonical, expected, JSON.stringify(text));
      assert.equal(planSave(text).content, expected, JSON.stringify(text));
      assert.equal(compacted(text), expected, JSON.stringify(text));
      assert.equal(expired(text), expected, JSON.stringify(text));
    }
  }
});

test("an ASCII memory over 128 KB with lines rewritten through it comes back exactly", () => {
  // An ASCII result is sliced at its common start and end with the text
  // only (bindings/wasm/src/js/repeats.rs), a result of this size too.
  const lines = (legacy) =>
    Array.from({ length: 3000 }, (_, i) =>
      i % 300 === 7 ? (legacy ? `- (2025-02-01) [fact] legacy ${i}` : `- 2025-02-01: legacy ${i}`) : `- 2025-01-01: entry ${i} of a long ASCII memory`,
    );
  const text = `## Log\n${lines(true).join("\n")}`;
  const expected = `## Log\n${lines(false).join("\n")}`;
  assert.ok(expected.length > 128 * 1024);
  assert.equal(render(text), expected);
  assert.equal(validate(text).canonical, expected);
  assert.equal(planSave(text, { limits: { soft: 1e6, hard: 1e6 } }).content, expected);
  assert.equal(compacted(text), expected);
  assert.equal(expired(text), expected);
  const theirs = expected.replace("entry 1500 of", "entry 1500, theirs, of");
  const merged = merge(expected, `${text}\n- 2025-03-01: ours`, theirs);
  assert.equal(merged.content, `${theirs}\n- 2025-03-01: ours`);
});

test("texts of 4,094 to 4,098 units, a pair of surrogates cut at the end among them, read exactly as given", () => {
  // Around the length once tried as the longest text converted in one call
  // of the host's encoder (BENCHMARKS.md, "A short text converted in one
  // call: tried and taken out"): whichever way bindings/wasm/src/wasm/text/encode.rs converts a
  // text, what the engine reads is the text made well-formed.
  const head = "## A\n- 2025-01-01: ";
  for (const fill of ["a", "é", "記", "😀", "\uD800", "a\uDC00"]) {
    for (const units of [4094, 4095, 4096, 4097, 4098]) {
      // Cut at exactly `units`: a pair of surrogates may be split in two.
      const text = (head + fill.repeat(units)).slice(0, units);
      const faithful = text.toWellFormed();
      const what = `${JSON.stringify(fill)} × ${units} units`;
      assert.deepEqual(
        [usage(text).chars, usage(text).utf8Bytes],
        [[...faithful].length, Buffer.byteLength(faithful, "utf8")],
        what,
      );
      assert.equal(render(text), faithful, what);
    }
  }
});

test("a lone surrogate anywhere in a line is U+FFFD in every text result, never sliced from the input", () => {
  // The module looks for the U+FFFD a lone surrogate becomes a block of
  // bytes at a time (src/fast/sixteen.rs): the surrogate at every offset of
  // a block, and across two.
  for (const lone of ["\ud800", "\udfff"]) {
    for (let k = 0; k < 40; k++) {
      const text = `## A\n- 2025-01-01: ${"x".repeat(k)}${lone}${"y".repeat(40 - k)}\n- 2025-01-02: ${"z".repeat(60)}`;
      const well = text.toWellFormed();
      assert.equal(render(text), well, `render, offset ${k}`);
      assert.equal(validate(text).canonical, well, `validate, offset ${k}`);
      assert.equal(planSave(text).content, well, `planSave, offset ${k}`);
      assert.equal(compacted(text), well, `compact, offset ${k}`);
      assert.equal(expired(text), well, `expire, offset ${k}`);
      assert.equal(injectionBlock(text).includes(lone), false, `injectionBlock, offset ${k}`);
    }
  }
});
