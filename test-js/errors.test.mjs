// Bad arguments throw real Errors with a stable `code`; text never throws.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore, injectionBlock, normalizeHeading, parse, planSave, render, usage, validate } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { rejection, thrown } from "./helpers.mjs";

function assertCode(fn, code, what) {
  const error = thrown(fn);
  assert.ok(error instanceof Error, `${what}: should throw an Error, got ${error}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(error.message.length > 0, `${what}: should have a message`);
  assert.ok(error.stack, `${what}: should have a stack`);
}

test("a non-string text throws input/not-a-string from every function", () => {
  for (const bad of [undefined, null, 42, {}, ["## A"], Symbol("s"), 1n, true]) {
    const label = typeof bad;
    assertCode(() => parse(bad), "input/not-a-string", `parse(${label})`);
    assertCode(() => render(bad), "input/not-a-string", `render(${label})`);
    assertCode(() => normalizeHeading(bad), "input/not-a-string", `normalizeHeading(${label})`);
    assertCode(() => usage(bad), "input/not-a-string", `usage(${label})`);
    assertCode(() => validate(bad), "input/not-a-string", `validate(${label})`);
    assertCode(() => planSave(bad), "input/not-a-string", `planSave(${label})`);
    assertCode(() => injectionBlock(bad), "input/not-a-string", `injectionBlock(${label})`);
  }
  assert.match(thrown(() => planSave(7)).message, /updated/, "should name the argument");
});

test("an unknown scope throws options/invalid-scope", () => {
  for (const scope of ["everyone", "User", "", "team "]) {
    assertCode(() => validate("## A", { scope }), "options/invalid-scope", `validate scope ${scope}`);
    assertCode(() => planSave("## A", { scope }), "options/invalid-scope", `planSave scope ${scope}`);
    assertCode(() => injectionBlock("## A", { scope }), "options/invalid-scope", `injectionBlock scope ${scope}`);
  }
  assert.match(thrown(() => validate("## A", { scope: "everyone" })).message, /everyone/);
});

test("a message names a text as JSON.stringify quotes it, on one line", async () => {
  const texts = ["a\nb", 'say "hi"', "back\\slash", "nul\u0000 bell\u0007 tab\t", "café 記憶 😀"];
  for (const text of texts) {
    const scope = thrown(() => validate("## A", { scope: text }));
    assert.equal(scope.message, `invalid scope ${JSON.stringify(text)}: expected "user" or "team"`);
    const prefix = thrown(() => new MemoryStore(memoryHost(), { keyPrefix: text }));
    assert.equal(prefix.code, "options/invalid-key-prefix");
    assert.ok(prefix.message.startsWith(`invalid key prefix ${JSON.stringify(text)}: `), prefix.message);
    const id = await rejection(new MemoryStore(memoryHost()).load({ scope: "user", id: text }));
    assert.equal(id.code, "store/invalid-id");
    assert.ok(id.message.startsWith(`invalid memory id ${JSON.stringify(text)}: `), id.message);
    for (const message of [scope.message, prefix.message, id.message]) assert.doesNotMatch(message, /[\n\r]/);
  }
});

test("bad limits throw options/invalid-limits", () => {
  for (const limits of [{ soft: -1 }, { hard: 0 }, { soft: 1.5 }, { soft: 100, hard: 10 }, { hard: Infinity }, { soft: NaN }]) {
    assertCode(() => usage("## A", limits), "options/invalid-limits", `usage ${JSON.stringify(limits)}`);
    assertCode(() => validate("## A", { limits }), "options/invalid-limits", `validate ${JSON.stringify(limits)}`);
    assertCode(() => injectionBlock("## A", { limits }), "options/invalid-limits", `inject ${JSON.stringify(limits)}`);
  }
});

test("wrongly typed options throw options/invalid", () => {
  const cases = [
    ["scope number", () => validate("## A", { scope: 5 })],
    ["previous number", () => validate("## A", { previous: 5 })],
    ["limits string", () => validate("## A", { limits: "big" })],
    ["limit string", () => usage("## A", { soft: "10" })],
    ["headings not a list", () => validate("## A", { forbiddenTeamHeadings: "Preferences" })],
    ["allowErase string", () => planSave("## A", { allowErase: "yes" })],
    ["userName number", () => injectionBlock("## A", { userName: 3 })],
    ["options a string", () => validate("## A", "team")],
    ["options a number", () => planSave("## A", 1)],
  ];
  for (const [what, fn] of cases) assertCode(fn, "options/invalid", what);
  assert.equal(
    thrown(() => validate("## A", { scope: 5 })).message,
    "invalid options: invalid type: floating point `5.0`, expected a string",
  );
  // Numbers are written as Rust writes an f64 (all digits, no exponent).
  for (const [n, written] of [
    [5.5, "5.5"],
    [-0, "-0.0"],
    [1e21, "1000000000000000000000.0"],
    [-1.5e300, `-15${"0".repeat(299)}.0`],
    [1e-7, "0.0000001"],
    [1.25e-10, "0.000000000125"],
    [123456789.125, "123456789.125"],
    [2 ** 53 + 2, "9007199254740994.0"],
    [NaN, "NaN"],
    [-Infinity, "-inf"],
  ]) {
    assert.equal(
      thrown(() => validate("## A", { scope: n })).message,
      `invalid options: invalid type: floating point \`${written}\`, expected a string`,
      String(n),
    );
  }
});

test("a throw changes nothing: the next call works", () => {
  thrown(() => validate("## A", { scope: "nope" }));
  assert.equal(validate("## A").ok, true);
});
