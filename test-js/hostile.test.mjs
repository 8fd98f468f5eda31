// Hostile inputs at the package's door: every export called with values of
// every type in every argument, throwing getters, Proxies, `__proto__` and
// `constructor` keys, odd numbers, lone surrogates, and very large texts.
// Each call gives a coded error (never an internal one) or a correct result,
// pollutes nothing, and leaves the package working; no cost grows with the
// square of the input.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

import * as memdoc from "memdoc";
import { describe, growth } from "../bench/growth.mjs";
import { MemoryStore, compact, errorCodes, expire, injectionBlock, merge, normalizeHeading, parse, planSave, recall, render, usage, validate, writingRules } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";

const CODES = new Set(errorCodes());
const DOC = "## Facts\n- 2025-03-15: Lives in Seattle\n\n## Notes\nplain";

const boom = new Error("hostile getter");
const throwingProxy = () =>
  new Proxy({}, {
    get() { throw boom; },
    has() { throw boom; },
    ownKeys() { throw boom; },
    getOwnPropertyDescriptor() { throw boom; },
    getPrototypeOf() { throw boom; },
  });
/** Values of every type, and objects that fight back. */
const hostileValues = () => [
  ["undefined", undefined],
  ["null", null],
  ["true", true],
  ["0", 0],
  ["-0", -0],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
  ["-1", -1],
  ["1.5", 1.5],
  ["2^53 + 2", 2 ** 53 + 2],
  ["1e308", 1e308],
  ["bigint", 10n],
  ["symbol", Symbol("s")],
  ["empty string", ""],
  ["lone surrogate", "\uD800## A\uDFFF"],
  ["String object", new String("## A")],
  ["{}", {}],
  ["[]", []],
  ["[string]", ["## A"]],
  ["function", () => "## A"],
  ["Date", new Date(0)],
  ["RegExp", /x/],
  ["Map", new Map([["scope", "team"]])],
  ["null prototype", Object.create(null)],
  ["throwing Proxy", throwingProxy()],
  ["throwing getters", { get scope() { throw boom; }, get limits() { throw boom; }, get target() { throw boom; }, get id() { throw boom; }, get baseRevision() { throw boom; } }],
  ["toString that throws", { toString() { throw boom; }, valueOf() { throw boom; } }],
  ["__proto__ key", JSON.parse('{"__proto__": {"scope": "team", "polluted": true}}')],
  ["constructor key", { constructor: { prototype: { polluted: true } }, scope: "user" }],
  ["deep array", JSON.parse("[".repeat(5000) + "]".repeat(5000))],
  ["deep object", JSON.parse('{"a":'.repeat(5000) + "1" + "}".repeat(5000))],
];

/** Option objects whose fields are wrong in every way. */
const hostileOptions = () => {
  const out = [];
  const fields = [
    "scope", "limits", "soft", "hard", "previous", "forbiddenTeamHeadings", "allowErase", "userName", "target", "today", "keyPrefix", "historyDepth",
    "compactOverLimit", "timeoutMs", "now", "rewrite", "baseRevision", "actor", "onConflict", "id",
    // recall's and expire's
    "budget", "pinned", "weights", "relevance", "halfLifeDays", "policies", "section", "maxAgeDays",
  ];
  for (const field of fields) {
    for (const [label, value] of hostileValues()) out.push([`{ ${field}: ${label} }`, { [field]: value }]);
    out.push([`{ limits: { soft: ... } } in ${field}`, { [field]: { soft: -1, hard: NaN } }]);
  }
  return out;
};

/** Call `fn`; it must throw a coded, listed, non-internal Error or return. */
function outcome(fn, what) {
  let value;
  try {
    value = fn();
  } catch (error) {
    assert.ok(error instanceof Error, `${what}: threw a non-Error ${String(error)}`);
    assert.ok(CODES.has(error.code), `${what}: threw ${error.code ?? "no code"}: ${error.message}`);
    assert.ok(!error.code.startsWith("internal/"), `${what}: ${error.code}: ${error.message}`);
    return { error };
  }
  return { value };
}

const exports = {
  parse: (a) => parse(a),
  render: (a) => render(a),
  normalizeHeading: (a) => normalizeHeading(a),
  usage: (a, b) => usage(a, b),
  validate: (a, b) => validate(a, b),
  planSave: (a, b) => planSave(a, b),
  injectionBlock: (a, b) => injectionBlock(a, b),
  merge: (a, b, c) => merge(a, b, c),
  compact: (a, b) => compact(a, b),
  recall: (a, b, c) => recall(a, b, c),
  expire: (a, b) => expire(a, b),
  writingRules: (a) => writingRules(a),
};
const arity = { parse: 1, render: 1, normalizeHeading: 1, usage: 2, validate: 2, planSave: 2, injectionBlock: 2, merge: 3, compact: 2, recall: 3, expire: 2, writingRules: 1 };
const EXPIRY = { today: "2025-06-01", policies: [{ section: "Facts", maxAgeDays: 30 }] };
const good = {
  compact: [DOC, { scope: "team", target: 20 }],
  recall: [DOC, "Seattle", { budget: 200 }],
  expire: [DOC, EXPIRY],
  writingRules: [{ scope: "team" }],
};
const goodArgs = (name) => [...(good[name] ?? Array.from({ length: arity[name] }, (_, i) => (i === 0 || name === "merge" ? DOC : undefined)))];
/** The arguments that are texts, which must be strings: the rest are options. */
const isText = (name, i) => name !== "writingRules" && (i === 0 || name === "merge" || (name === "recall" && i === 1));

test("every export, every argument, every hostile value: a coded error or a result", () => {
  let calls = 0;
  for (const [name, fn] of Object.entries(exports)) {
    for (let i = 0; i < arity[name]; i += 1) {
      const values = [...hostileValues(), ...(isText(name, i) ? [] : hostileOptions())];
      for (const [label, value] of values) {
        const args = goodArgs(name);
        args[i] = value;
        const r = outcome(() => fn(...args), `${name} argument ${i + 1} = ${label}`);
        if (r.value !== undefined && typeof value !== "string" && isText(name, i)) {
          assert.fail(`${name}: a non-string text (${label}) must be refused, got a result`);
        }
        calls += 1;
      }
    }
  }
  // Calls without arguments, and extra arguments.
  for (const [name, fn] of Object.entries(exports)) outcome(() => fn(), `${name}()`);
  assert.equal(typeof parse(DOC, 1, 2, 3).sections, "object");
  assert.ok(calls > 2000, `${calls} calls`);
  assert.equal({}.polluted, undefined, "Object.prototype is not polluted");
  assert.equal({}.scope, undefined, "Object.prototype is not polluted");
  assert.equal(validate(DOC).ok, true, "the package still works");
});

test("a __proto__ key is an own field, never the prototype; constructor is just a key", () => {
  const opts = JSON.parse('{"__proto__": {"scope": "nope"}, "scope": "team"}');
  assert.equal(validate(DOC, opts).ok, true);
  const hidden = JSON.parse('{"__proto__": {"scope": "team"}}');
  const r = outcome(() => validate("## Preferences\n- 2025-01-01: x", hidden), "__proto__ scope");
  if (r.value) assert.equal(r.value.ok, true, "the scope in __proto__ is not read as the scope");
  assert.equal({}.scope, undefined);
});

test("options are their own keys: a field Object.prototype holds is not read as an option", () => {
  const personal = "## Preferences\n- 2025-01-01: x";
  Object.prototype.scope = "team";
  Object.prototype.limits = { hard: 1 };
  let polluted;
  try {
    polluted = [validate(personal, {}), validate(personal, { limits: {} }), planSave(personal, {})];
  } finally {
    delete Object.prototype.scope;
    delete Object.prototype.limits;
  }
  for (const r of polluted) {
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      [],
      "user scope and the default limits: no personal heading, no size finding",
    );
  }
  assert.equal(validate(personal, { scope: "team" }).ok, false, "an own scope is read");
});

test("options are read where Object.prototype is frozen (a hardened realm): keys it has are still fields", () => {
  // In a process of its own: freezing the prototype would change this one.
  const script = `
    Object.freeze(Object.prototype);
    const { validate } = await import("memdoc");
    const options = { toString: 1, constructor: 2, hasOwnProperty: 3, scope: "team", limits: { valueOf: 4, soft: 5, hard: 10 } };
    const report = validate("## Preferences\\n- 2025-01-01: x", options);
    console.log(JSON.stringify(report.diagnostics.map((d) => d.code).sort()));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: new URL(".", import.meta.url), encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), ["scope/personal-heading", "size/hard-limit"], "the scope and the limits were read");
});

test("a setter on Object.prototype that calls the package while a result is being made: both results whole", () => {
  // The readers of src/wasm keep where they are in module state; a call made
  // from inside one (here from a setter the packed reader runs for the
  // field `reason`) must leave the outer call reading where it was.
  const text = "## Same\n- 2025-01-01: a\n- 2025-01-01: a\n## Same\n- 2025-01-02: b\n- 2025-01-01: a";
  const options = { scope: "team", target: 10 };
  const clean = compact(text, options);
  const inner = [];
  let nested = false;
  Object.defineProperty(Object.prototype, "reason", {
    configurable: true,
    set(value) {
      if (!nested) {
        nested = true;
        inner.push(compact(text, options), parse(text), recall(text, "a b", { budget: 20 }));
        nested = false;
      }
      Object.defineProperty(this, "reason", { value, writable: true, enumerable: true, configurable: true });
    },
  });
  let polluted;
  try {
    polluted = compact(text, options);
  } finally {
    delete Object.prototype.reason;
  }
  assert.ok(clean.removed.length >= 2, "the compaction removes entries, each with a reason");
  assert.equal(inner.length, 3 * clean.removed.length, "the setter ran once per removed entry");
  assert.deepStrictEqual(polluted, clean);
  for (let k = 0; k < inner.length; k += 3) {
    assert.deepStrictEqual(inner[k], clean);
    assert.deepStrictEqual(inner[k + 1], parse(text));
    assert.deepStrictEqual(inner[k + 2], recall(text, "a b", { budget: 20 }));
  }
});

test("the sync exports with lone surrogates: U+FFFD, ranges still UTF-16 in the input", () => {
  for (const text of ["\uD800", "\uDFFF\uD800", "## A\uD83D\n- 2025-01-01: \uDE00x", "\uD800".repeat(1000)]) {
    const doc = parse(text);
    assert.equal(typeof doc, "object");
    const canonical = render(text);
    assert.equal(render(canonical), canonical);
    assert.ok(!canonical.includes("\uD800"), "lone surrogates become U+FFFD");
    for (const d of validate(text).diagnostics) {
      if (d.range) assert.ok(d.range.end.offset <= text.length, "ranges stay in the input");
    }
    assert.equal(merge(text, text, text).clean, true);
    assert.equal(typeof compact(text, { scope: "user", target: 5 }).content, "string");
    assert.ok(!recall(text, "\uD800 a", { budget: 50 }).content.includes("\uD800"));
    assert.ok(!expire(text, EXPIRY).content.includes("\uD800"));
  }
});

test("MemoryStore: hostile references, texts, revisions and options reject with codes", async () => {
  const host = memoryHost();
  const s = new MemoryStore(host, { now: () => "2025-01-01T00:00:00.000Z" });
  const ref = { scope: "team", id: "acme" };
  const calls = [
    ["load ref", (v) => s.load(v)],
    ["history ref", (v) => s.history(v)],
    ["save ref", (v) => s.save(v, DOC, { baseRevision: 0 })],
    ["save text", (v) => s.save(ref, v, { baseRevision: 0 })],
    ["save options", (v) => s.save(ref, DOC, v)],
    ["revision n", (v) => s.revision(ref, v)],
    ["revert n", (v) => s.revert(ref, v, { baseRevision: 0 })],
    ["revert options", (v) => s.revert(ref, 1, v)],
  ];
  let n = 0;
  // References, texts and revisions first: none of them may write anything.
  const phases = [calls.filter(([what]) => !what.endsWith("options")), calls.filter(([what]) => what.endsWith("options"))];
  for (const [phase, list] of phases.entries()) {
    for (const [what, call] of list) {
      for (const [label, value] of [...hostileValues(), ...hostileOptions()]) {
        let result;
        try {
          result = await call(value);
        } catch (error) {
          assert.ok(error instanceof Error, `${what} ${label}: ${String(error)}`);
          assert.ok(CODES.has(error.code) && !error.code.startsWith("internal/"), `${what} ${label}: ${error.code}: ${error.message}`);
          n += 1;
          continue;
        }
        // Accepted: a valid reference, text, revision or options object, with
        // a result of the documented shape.
        if (what.startsWith("save") || what.startsWith("revert")) {
          assert.ok(["saved", "no_op", "rejected", "conflict"].includes(result.status), `${what} ${label}: ${JSON.stringify(result)}`);
        }
        if (what === "save text") assert.equal(typeof value, "string", `${what} ${label} was accepted`);
      }
    }
    if (phase === 0) assert.deepEqual(host.keys(), [], "no hostile reference, text or revision wrote anything");
  }
  assert.ok(n > 300, `${n} rejections`);
  for (const [label, options] of hostileOptions()) {
    const r = outcome(() => new MemoryStore(memoryHost(), options), `new MemoryStore(host, ${label})`);
    if (r.error === undefined) assert.ok(r.value instanceof MemoryStore);
  }
  for (const [label, value] of hostileValues()) outcome(() => new MemoryStore(value), `new MemoryStore(${label})`);
  const current = (await s.load(ref)).revision;
  assert.equal((await s.save(ref, `${DOC}\n- 2025-04-01: more`, { baseRevision: current })).status, "saved", "the store still works");
});

// ---- large inputs ---------------------------------------------------------

const MB = 1024 * 1024;

function big(name) {
  switch (name) {
    case "50 MB string":
      return "## Notes\n" + "a note line with some words\n".repeat(Math.ceil((50 * MB) / 28));
    case "100k headings":
      return Array.from({ length: 100_000 }, (_, i) => `## Heading ${i}\n- 2025-01-01: entry ${i}`).join("\n");
    case "5 MB line":
      return "## Notes\n" + "x".repeat(5 * MB);
    default:
      throw new Error(name);
  }
}

/**
 * `check()` called in a frame of its own: what it makes is garbage once it
 * returns. A block would not do: the interpreter keeps a block's values in
 * the test's own frame, and with the 50 MB string's parse result (millions
 * of objects) still held, the host's collector made the recall after it
 * take 200 s instead of 20 s.
 */
const apart = (check) => check();

for (const name of ["5 MB line", "100k headings", "50 MB string"]) {
  test(`large input: ${name} through every export`, () => {
    const text = big(name);
    apart(() => {
      const doc = parse(text);
      assert.ok(doc.sections.length >= 1);
      if (name === "100k headings") assert.equal(doc.sections.length, 100_000);
    });
    const canonical = render(text);
    assert.equal(canonical.length > 0, true);
    apart(() => {
      const u = usage(text);
      assert.ok(u.chars > 0 && u.level === "hard", `level ${u.level}`);
      const report = validate(text, { scope: "team" });
      assert.equal(report.ok, false, "over the hard limit");
      assert.ok(report.diagnostics.some((d) => d.severity === "error"));
      assert.equal(planSave(text).status, "rejected");
      assert.equal(typeof injectionBlock(text), "string");
    });
    apart(() => {
      const m = merge(text, text, text);
      assert.equal(m.clean, true);
      assert.equal(m.content, canonical);
    });
    apart(() => {
      const c = compact(text, { scope: "user", target: 10_000 });
      assert.ok(c.fits || c.after <= c.before);
    });
    apart(() => {
      const r = recall(text, "entry note words 7", { budget: 2000 });
      assert.ok(r.chars <= 2000, `${r.chars} chars`);
      assert.equal(r.totals.items, r.selected.length + r.omitted.length, "every item is accounted for");
      // The 5 MB line is one item, too large for the budget; every line of
      // the 50 MB string holds "note" and "words", which so tell nothing
      // (BM25's weight near 0): no item reaches the relevance floor.
      assert.equal(r.selected.length > 0, name === "100k headings", `${r.selected.length} selected`);
    });
    apart(() => {
      const e = expire(text, { today: "2025-06-01", policies: [{ section: "Notes", maxAgeDays: 30 }, { section: "Heading 7", maxAgeDays: 30 }] });
      assert.equal(e.content, render(e.content), "canonical");
    });
  });
}

// ---- cost -----------------------------------------------------------------

// How much more a 16 times larger input costs is a benchmark (`npm run bench`
// prints it for every shape and operation; the target is at most 20 times).
// Here the same measurement only guards against a cost that grows with the
// square of the input (256 times), with a bound that scheduling noise and
// the garbage collector cannot reach: below 20 ms for the large input, timer
// noise dominates, so such pairs are not judged.
test("no export's cost grows with the square of its input (16x the input, under 48x the time)", (t) => {
  const bound = 48;
  const results = growth(memdoc, { bound });
  t.diagnostic(results.map(describe).join("; "));
  assert.deepEqual(results.filter((r) => r.ratio > bound && r.large > 20).map(describe), []);
});
