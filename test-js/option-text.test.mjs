// A long text in options (`previous`) is kept with its conversion for the
// next call that passes the same string (bindings/wasm/src/wasm/text/kept.rs): every call must
// still see exactly the text it was given.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planSave, validate } from "memdoc";

/** A stored document of about `n` units with the sections `titles`. */
function stored(titles, n = 3000) {
  const filler = "x".repeat(Math.ceil(n / titles.length));
  return titles.map((t) => `## ${t}\n- 2025-01-01: ${filler}`).join("\n\n");
}

const removed = (report) => report.diagnostics.filter((d) => d.code === "diff/section-removed").map((d) => d.message);

test("a long previous passed again, or another one of the same length, is read afresh each call", () => {
  const text = stored(["Alpha", "Beta"], 60);
  const a = stored(["Alpha", "Beta", "Gamma"]);
  const b = stored(["Alpha", "Beta", "Delta"]);
  assert.equal(a.length, b.length);
  const fromA = removed(validate(text, { scope: "team", previous: a }));
  assert.equal(fromA.length, 1);
  assert.match(fromA[0], /Gamma/);
  // The same string again, an equal string made apart, then another text of the same length.
  assert.deepEqual(removed(validate(text, { scope: "team", previous: a })), fromA);
  assert.deepEqual(removed(validate(text, { scope: "team", previous: [...a].join("") })), fromA);
  const fromB = removed(validate(text, { scope: "team", previous: b }));
  assert.equal(fromB.length, 1);
  assert.match(fromB[0], /Delta/);
  // planSave reads the same option through the same conversion.
  assert.match(planSave(text, { scope: "team", previous: a }).diagnostics.map((d) => d.message).join(" "), /Gamma/);
  assert.match(planSave(text, { scope: "team", previous: b }).diagnostics.map((d) => d.message).join(" "), /Delta/);
});

test("a long previous with non-ASCII text and a lone surrogate converts as a short one does", () => {
  const head = "## Café 日本語 \ud800 notes\n- 2025-01-01: é";
  const long = `${head}\n\n${stored(["Zeta"])}`;
  const short = `${head}\n\n## Zeta\n- 2025-01-01: x`;
  const text = "## Other\n- 2025-01-01: y";
  const names = (previous) => removed(validate(text, { scope: "team", previous }));
  // Twice each: the first conversion and the kept one agree.
  assert.deepEqual(names(long), names(short));
  assert.deepEqual(names(long), names(short));
  assert.equal(names(long).length, 2);
});

test("previous texts of every length around the shortest kept one (128 units) are read as given", () => {
  const text = "## Other\n- 2025-01-01: y";
  /** A stored document of exactly `length` units whose section is `title`. */
  const exactly = (title, length) => {
    const head = `## ${title}\n- 2025-01-01: `;
    return head + "é".repeat(length - head.length);
  };
  const named = (previous) => removed(validate(text, { scope: "team", previous }));
  for (let length = 120; length <= 136; length++) {
    const a = exactly(`Alpha ${length}`, length);
    const b = exactly(`Bravo ${length}`, length);
    assert.equal(a.length, length);
    // Each twice, and in turn, so that a kept conversion is never read for another text.
    for (const [previous, title] of [[a, "Alpha"], [a, "Alpha"], [b, "Bravo"], [a, "Alpha"], [b, "Bravo"]]) {
      const found = named(previous);
      assert.equal(found.length, 1, `${length}: ${found}`);
      assert.match(found[0], new RegExp(`${title} ${length}`));
    }
  }
});

test("previous texts at the longest kept length (16,777,216 units) and one past it are read as given", () => {
  const text = "## Other\n- 2025-01-01: y";
  const named = (previous) => removed(validate(text, { scope: "team", previous }));
  for (const length of [2 ** 24, 2 ** 24 + 1]) {
    const exactly = (title) => {
      const head = `## ${title}\n- 2025-01-01: `;
      return head + "x".repeat(length - head.length);
    };
    const [a, b] = [exactly("Alpha"), exactly("Bravo")];
    assert.equal(a.length, length);
    for (const [previous, title] of [[a, "Alpha"], [a, "Alpha"], [b, "Bravo"], [a, "Alpha"]]) {
      const found = named(previous);
      assert.equal(found.length, 1, `${length}: ${found}`);
      assert.match(found[0], new RegExp(title));
    }
  }
});

test("what is found of a kept previous (its headings) follows the previous of each call", () => {
  // The headings of the stored memory are kept with the long text last read
  // from options (bindings/wasm/src/wasm/text/kept.rs, `Kept::derived`): a call with another
  // previous, longer, shorter or of the same length, must see its own.
  const codes = (report) => report.diagnostics.map((d) => `${d.code} ${d.message}`);
  const text = stored(["Preferences", "Alpha"], 60);
  const withPreferences = stored(["Preferences", "Alpha", "Gamma"]);
  const without = stored(["Proferences", "Alpha", "Delta"]);
  assert.equal(withPreferences.length, without.length);
  const short = "## Alpha\n## Omega\n- 2025-01-01: o";
  const longer = stored(["Alpha", "Sigma"], 20_000);
  const expected = new Map();
  for (const previous of [withPreferences, without, short, longer]) {
    // A fresh read: the previous made apart, after an unrelated previous.
    validate(text, { scope: "team", previous: stored(["Unrelated"], 9_000) });
    expected.set(previous, codes(validate(text, { scope: "team", previous: [...previous].join("") })));
  }
  assert.ok(expected.get(withPreferences).some((c) => c.startsWith("scope/legacy-personal-heading")));
  assert.ok(expected.get(without).some((c) => c.startsWith("scope/personal-heading")));
  assert.ok(expected.get(short).some((c) => /Omega/.test(c)));
  assert.ok(expected.get(longer).some((c) => /Sigma/.test(c)));
  const order = [withPreferences, withPreferences, without, withPreferences, short, withPreferences, longer, without, short, short, longer, longer];
  for (const [k, previous] of order.entries()) {
    assert.deepEqual(codes(validate(text, { scope: "team", previous })), expected.get(previous), `validate, call ${k}`);
    const plan = planSave(text, { scope: "team", previous });
    assert.deepEqual(codes(plan), expected.get(previous), `planSave, call ${k}`);
  }
});

test("a call made from inside another, through a host function the check uses, leaves both right", () => {
  // Titles outside the module's own case-folding table (a roman numeral,
  // full-width letters) are folded by the host's String.prototype.normalize.
  // A page may have replaced that function with one that calls memdoc; the
  // inner call then replaces the kept previous while the outer is finding
  // the headings of its own (bindings/wasm/src/wasm/text/kept.rs, `Kept::derived`).
  const text = "## Other\n- 2025-01-01: y";
  const a = stored(["ＡＬＰＨＡ ⅻ", "Gamma"]);
  const b = stored(["Bravo ⅻ", "Delta", "Epsilon"]);
  const removedOf = (previous) => removed(validate(text, { scope: "team", previous }));
  const fromA = removedOf(`${a}`);
  const fromB = removedOf(`${b}`);
  assert.equal(fromA.length, 2);
  assert.equal(fromB.length, 3);
  // Something else kept first, so that the outer call finds a's headings anew.
  removedOf(stored(["Unrelated"], 5_000));
  const normalize = String.prototype.normalize;
  let inner;
  let calls = 0;
  String.prototype.normalize = function (...args) {
    calls += 1;
    if (calls === 1) inner = removedOf(b);
    return normalize.apply(this, args);
  };
  let outer;
  try {
    outer = removedOf(a);
  } finally {
    String.prototype.normalize = normalize;
  }
  assert.ok(calls > 1, "the host folded titles in both calls");
  assert.deepEqual(inner, fromB, "the inner call");
  assert.deepEqual(outer, fromA, "the outer call");
  // What the outer call found of a is not kept as b's, which is kept now.
  assert.deepEqual(removedOf(b), fromB);
  assert.deepEqual(removedOf(a), fromA);
});

test("a call made from inside another while a text is converted near the kept one leaves both right", () => {
  // A text argument is converted near the kept previous with the host's
  // TextEncoder; a page may have replaced its encodeInto with one that
  // calls memdoc, which keeps another previous while the outer call still
  // reads the old one (bindings/wasm/src/wasm/text/kept.rs, `Kept`).
  const long = (titles) => titles.map((t) => `## ${t}\n- 2025-01-01: ${"é".repeat(200)}`).join("\n\n");
  const a = long(["Alpha", "Gamma"]);
  const b = long(["Bravo", "Delta", "Epsilon"]);
  const text = `${a.replace("Gamma", "Gammb")}\n- 2025-01-02: more é`;
  const innerText = `## X\n- 2025-01-01: ${"ü".repeat(300)}`;
  const codes = (report) => report.diagnostics.map((d) => `${d.code} ${d.message}`);
  const expectedOuter = codes(validate(text, { scope: "team", previous: [...a].join("") }));
  const expectedInner = codes(validate(innerText, { scope: "team", previous: [...b].join("") }));
  assert.ok(expectedOuter.some((c) => /Gamma/.test(c)));
  validate(text, { scope: "team", previous: a });
  const encodeInto = TextEncoder.prototype.encodeInto;
  let inner;
  let calls = 0;
  TextEncoder.prototype.encodeInto = function (...args) {
    calls += 1;
    if (calls === 1) inner = codes(validate(innerText, { scope: "team", previous: b }));
    return encodeInto.apply(this, args);
  };
  let outer;
  try {
    outer = codes(validate(text, { scope: "team", previous: a }));
  } finally {
    TextEncoder.prototype.encodeInto = encodeInto;
  }
  assert.ok(calls > 1, "the host encoded texts in both calls");
  assert.deepEqual(inner, expectedInner, "the inner call");
  assert.deepEqual(outer, expectedOuter, "the outer call");
  assert.deepEqual(codes(validate(text, { scope: "team", previous: a })), expectedOuter);
});
