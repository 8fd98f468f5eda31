// Every export of the built package, imported by name, with its shapes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import initDefault, * as memdoc from "memdoc";
import {
  diagnosticCodes,
  errorCodes,
  init,
  injectionBlock,
  normalizeHeading,
  parse,
  planSave,
  render,
  usage,
  validate,
  version,
  writingRules,
} from "memdoc";
import { covered, pkgDir, root, thrown } from "./helpers.mjs";

const team = "## Product Decisions\n- 2025-03-15: Standups are on Mondays";

test("the node entry is ready on import; init is idempotent", async () => {
  assert.equal(typeof initDefault, "function", "default export should be init");
  assert.equal(initDefault, init);
  const first = init();
  assert.equal(init(), first, "should return the same promise");
  assert.equal(await first, undefined);
  assert.equal(render("## A"), "## A");
});

test("version is the crate's and the package's", () => {
  const cargo = readFileSync(join(root, "Cargo.toml"), "utf8").match(/^version = "([^"]+)"/m)[1];
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  assert.equal(version(), cargo);
  assert.equal(pkg.version, cargo);
});

test("parse returns plain JSON objects with sections, entries, raw lines and preamble", () => {
  const text = "intro line\n## Facts\n- 2025-03-15: Office is in Seattle\n- (2024-01-02) [pref] dark mode\nfree text";
  const doc = parse(text);
  assert.equal(Object.getPrototypeOf(doc), Object.prototype, "should be a plain object, not a Map");
  assert.deepEqual(doc.preamble.map((l) => [l.kind, l.text]), [["raw", "intro line"]]);
  assert.equal(doc.sections.length, 1);
  const [section] = doc.sections;
  assert.equal(section.title, "Facts");
  assert.equal(section.explicit, true);
  assert.equal(covered(text, section.range), "## Facts");
  const [entry, legacy, raw] = section.lines;
  assert.deepEqual(
    { kind: entry.kind, date: entry.date, text: entry.text, legacyMarker: entry.legacyMarker },
    { kind: "entry", date: "2025-03-15", text: "Office is in Seattle", legacyMarker: null },
  );
  assert.equal(legacy.legacyMarker, "pref");
  assert.equal(legacy.date, "2024-01-02");
  assert.deepEqual({ kind: raw.kind, text: raw.text }, { kind: "raw", text: "free text" });
  assert.ok(!("legacyMarker" in raw), "raw lines should have no entry fields");
  for (const line of section.lines) assert.equal(covered(text, line.range), text.split("\n")[section.lines.indexOf(line) + 2]);
});

test("parse of entries without a heading gives the implicit section", () => {
  const doc = parse("- 2025-01-01: x");
  assert.deepEqual([doc.sections[0].title, doc.sections[0].explicit], ["Memory", false]);
});

test("every string parses: empty, NUL, lone surrogates, CRLF", () => {
  for (const text of ["", "\0", "## A\0B\n- 2025-01-01: \0", "\ud800## x", "## Lone \udc00\r\n- 2025-01-01: a\r- 2025-01-02: b"]) {
    const doc = parse(text);
    assert.ok(Array.isArray(doc.sections), `should parse ${JSON.stringify(text)}`);
    for (const s of doc.sections) for (const l of s.lines) covered(text, l.range);
    assert.equal(typeof render(text), "string");
    assert.equal(typeof validate(text).ok, "boolean");
  }
  const crlf = parse("## A\r\n- 2025-01-01: a\r- 2025-01-02: b");
  assert.deepEqual(crlf.sections[0].lines.map((l) => l.text), ["a", "b"]);
});

test("render gives the canonical form and is idempotent", () => {
  const messy = "##   Facts  \n-   2025-03-15:   Office  \n\n\n## Other\n- 2025-01-01: x";
  const once = render(messy);
  assert.equal(render(once), once);
  assert.ok(once.startsWith("## Facts\n"), once);
});

test("normalizeHeading folds case, punctuation and compatibility forms", () => {
  assert.equal(normalizeHeading("Personal_Notes!"), "personal notes");
  assert.equal(normalizeHeading("Ｐｒｅｆｅｒｅｎｃｅｓ"), "preferences");
  assert.equal(normalizeHeading("🎯🚀"), "");
  // Lower-cased by the host (toLowerCase) as natively: a final sigma, a dotted capital I.
  assert.equal(normalizeHeading("ÉTÉ ΟΔΟΣ İstanbul"), "été οδος i stanbul");
});

test("usage counts code points of the canonical form, with limits", () => {
  const u = usage("## Emoji\n- 2025-01-01: 😀");
  assert.deepEqual(u, { chars: 24, utf8Bytes: 27, soft: 18000, hard: 25000, level: "ok" });
  assert.equal(usage("## Emoji\n- 2025-01-01: 😀", { soft: 10, hard: 30 }).level, "soft");
  assert.equal(usage("## Emoji\n- 2025-01-01: 😀", { soft: 5, hard: 10 }).level, "hard");
  assert.equal(usage("## A", { hard: 30000 }).soft, 18000, "a partial limit keeps the other default");
  assert.equal(usage("## A", null).hard, 25000);
});

test("validate reports ok, canonical, usage and coded diagnostics", () => {
  const reply = `${team}\n\n## Preferences\n- 2025-03-16: Alex likes dark mode`;
  const report = validate(reply, { scope: "team", previous: team });
  assert.equal(report.ok, false);
  assert.equal(report.canonical, render(reply));
  assert.deepEqual(report.usage, usage(reply));
  const [d] = report.diagnostics;
  assert.equal(report.diagnostics.length, 1);
  assert.equal(d.code, "scope/personal-heading");
  assert.equal(d.severity, "error");
  assert.equal(typeof d.message, "string");
  assert.ok(d.help === null || typeof d.help === "string");
  assert.equal(covered(reply, d.range), "## Preferences");
  assert.equal(validate(reply).ok, true, "user scope allows personal headings");
  assert.equal(validate(reply, { scope: "team", forbiddenTeamHeadings: ["Other"] }).ok, true);
  assert.deepEqual(validate(reply, { scope: "team", previous: null, limits: null }).diagnostics.map((x) => x.code), ["scope/personal-heading"]);
});

test("whole-document diagnostics have a null range, never undefined", () => {
  const { diagnostics } = validate("## A\n- 2025-01-01: x", { limits: { soft: 1, hard: 2 } });
  const hard = diagnostics.find((d) => d.code === "size/hard-limit");
  assert.ok(hard, JSON.stringify(diagnostics));
  assert.equal(hard.range, null);
  assert.ok(JSON.stringify(diagnostics).length > 0);
  for (const d of diagnostics) assert.ok(d.help !== undefined && d.range !== undefined);
});

test("planSave saves, rejects without changing anything, and reports no-ops", () => {
  const reply = `${team}\n\n## Preferences\n- 2025-03-16: Alex likes dark mode`;
  const rejected = planSave(reply, { scope: "team", previous: team });
  assert.equal(rejected.status, "rejected");
  assert.equal(rejected.content, team);
  assert.equal(rejected.changed, false);
  assert.deepEqual(rejected.dropped, []);
  const added = `${team}\n- 2025-03-17: Retro on Fridays`;
  const saved = planSave(added, { scope: "team", previous: team });
  assert.deepEqual([saved.status, saved.content, saved.changed], ["saved", render(added), true]);
  const same = planSave(team, { previous: team });
  assert.deepEqual([same.status, same.changed], ["saved", false]);
  const noOp = planSave("NO_UPDATE", { previous: team });
  assert.deepEqual([noOp.status, noOp.content, noOp.changed], ["no_op", team, false]);
  const erase = planSave("", { previous: team });
  assert.equal(erase.status, "rejected");
  assert.ok(erase.diagnostics.some((d) => d.code === "save/would-erase"));
  assert.notEqual(planSave("", { previous: team, allowErase: true }).content, team);
  const preamble = planSave(`Sure! Here it is:\n${added}`, { previous: team });
  assert.deepEqual(preamble.dropped, ["Sure! Here it is:"]);
});

test("planSave's changed compares every byte: one changed character at any offset, the same length", () => {
  // In the module the comparison is eight bytes at a time (fast::eq).
  const base = `## Notes\n- 2025-01-01: ${"abcdefgh".repeat(8)} é 記 😀 ${"z".repeat(21)}`;
  assert.equal(planSave(base, { previous: base }).changed, false);
  for (let at = base.indexOf("- 2025"); at < base.length; at++) {
    const code = base.charCodeAt(at);
    if (code > 127 || base[at] === " " || base[at] === ":" || base[at] === "-") continue;
    const other = base.slice(0, at) + (base[at] === "q" ? "r" : "q") + base.slice(at + 1);
    const plan = planSave(other, { previous: base });
    assert.deepEqual([plan.status, plan.changed], ["saved", true], `offset ${at}`);
  }
  // Rejected, the plan keeps the previous content: never changed.
  const rejected = planSave(`${base}\n\n## Preferences\n- 2025-01-02: x`, { scope: "team", previous: base });
  assert.deepEqual([rejected.status, rejected.content, rejected.changed], ["rejected", base, false]);
});

test("injectionBlock escapes reserved tags and greets by first name", () => {
  const block = injectionBlock("## Facts\n- 2025-01-01: </team_memory> tricky", { scope: "team" });
  assert.equal(block.match(/<\/team_memory>/g).length, 1);
  const user = injectionBlock("## Facts\n- 2025-01-01: x", { userName: "Alex Smith" });
  assert.ok(user.startsWith("<user_name>Alex</user_name>"), user);
  assert.equal(injectionBlock(""), "");
});

test("writingRules gives the format, the limits and, for a team, the team rule", () => {
  const team = writingRules({ scope: "team", limits: { soft: 100, hard: 200 } });
  assert.match(team, /`- YYYY-MM-DD: text`/);
  assert.match(team, /at most 200 characters/);
  assert.match(team, /Past 100 characters/);
  assert.match(team, /personal sections/);
  const user = writingRules();
  assert.match(user, /at most 25000 characters/);
  assert.doesNotMatch(user, /personal sections/);
  assert.equal(thrown(() => writingRules({ scope: "org" })).code, "options/invalid-scope");
  assert.equal(thrown(() => writingRules({ limits: { soft: 3, hard: 2 } })).code, "options/invalid-limits");
});

test("diagnosticCodes and errorCodes list every stable code once", () => {
  const codes = diagnosticCodes();
  assert.equal(codes.length, 13);
  assert.equal(new Set(codes).size, codes.length);
  assert.ok(codes.includes("scope/personal-heading"));
  assert.ok(codes.includes("entry/impossible-date"));
  assert.deepEqual(errorCodes(), [
    "options/invalid-scope",
    "options/invalid-limits",
    "options/invalid",
    "options/invalid-target",
    "options/invalid-date",
    "options/invalid-budget",
    "options/invalid-weight",
    "options/invalid-policy",
    "options/invalid-vectors",
    "input/not-a-string",
    "internal/panic",
    "internal/error",
    "store/host-failed",
    "store/host-timeout",
    "store/invalid-id",
    "store/invalid-revision",
    "store/revision-unavailable",
    "store/corrupt-record",
    "store/unsupported-format",
    "store/snapshot-collision",
    "store/import-conflict",
    "store/invalid-actor",
    "options/invalid-key-prefix",
    "options/invalid-history-depth",
  ]);
});

test("the DiagnosticCode and ErrorCode unions in the .d.ts equal the run-time lists", () => {
  const dts = readFileSync(join(pkgDir, "memdoc.d.ts"), "utf8");
  const union = (name) => {
    const body = dts.match(new RegExp(`export type ${name} =([^;]+);`))?.[1];
    assert.ok(body, `${name} should be declared in memdoc.d.ts`);
    return [...body.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  };
  assert.deepEqual(union("DiagnosticCode"), diagnosticCodes());
  assert.deepEqual(union("ErrorCode"), errorCodes());
});

test("the generated declarations are typed, not any", () => {
  const dts = readFileSync(join(pkgDir, "memdoc.d.ts"), "utf8");
  for (const sig of [
    "export function parse(text: string): MemoryDocument;",
    "export function render(text: string): string;",
    "export function validate(text: string, options?: ValidateOptions | null): Report;",
    "export function planSave(updated: string, options?: SaveOptions | null): SavePlan;",
    "export function merge(base: string, ours: string, theirs: string): MergeResult;",
    "export function compact(text: string, options?: CompactOptions | null): Compaction;",
    "load(ref: MemoryRef): Promise<Loaded>;",
    "save(ref: MemoryRef, updated: string, options: StoreSaveOptions): Promise<SaveOutcome>;",
  ]) {
    assert.ok(dts.includes(sig), `memdoc.d.ts should declare ${sig}`);
  }
  assert.ok(!/export function (__panicError|__scheduleReinit|start)/.test(dts), "internal exports should stay out of the types");
  assert.deepEqual(Object.keys(memdoc).filter((k) => k.startsWith("__")), [], "internal exports should stay out of the module");
  // Every function of the glue goes out guarded (guarded.js, written by the build from the glue's exports).
  const glue = readFileSync(join(pkgDir, "memdoc.js"), "utf8");
  const functions = [...glue.matchAll(/^export function ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]).filter((name) => !name.startsWith("__"));
  assert.ok(functions.includes("writingRules") && functions.length >= 14, functions.join(", "));
  for (const name of functions) assert.equal(memdoc[name]?.name, "guarded", `${name} should be exported guarded`);
  assert.ok(!/__Task/.test(dts), "the store's internal task class should stay out of the types");
});
