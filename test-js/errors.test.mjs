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
  // The message names where the value is and what it is; numbers are
  // written as JavaScript writes them.
  for (const [n, written] of [
    [5, "5"],
    [5.5, "5.5"],
    [-0, "0"],
    [1e21, "1e+21"],
    [-1.5e300, "-1.5e+300"],
    [1e-7, "1e-7"],
    [2 ** 53 + 2, "9007199254740994"],
    [NaN, "NaN"],
    [-Infinity, "-Infinity"],
  ]) {
    assert.equal(
      thrown(() => validate("## A", { scope: n })).message,
      `invalid options: \`scope\` must be a string, not the number ${written}`,
      String(n),
    );
  }
  const messages = [
    [() => validate("## A", { previous: true }), "`previous` must be a string, not the boolean true"],
    [() => validate("## A", { limits: "big" }), '`limits` must be an object, not the string "big"'],
    [() => validate("## A", { limits: [] }), "`limits` must be an object, not a list"],
    [() => usage("## A", { soft: "10" }), '`soft` must be a number, not the string "10"'],
    [() => validate("## A", { limits: { hard: null, soft: 10n } }), "`limits.soft` must be a number, not a bigint"],
    [() => validate("## A", { forbiddenTeamHeadings: "Preferences" }), '`forbiddenTeamHeadings` must be a list, not the string "Preferences"'],
    [() => validate("## A", { forbiddenTeamHeadings: ["a", 1] }), "`forbiddenTeamHeadings[1]` must be a string, not the number 1"],
    [() => planSave("## A", { allowErase: () => true }), "`allowErase` must be a boolean, not a function"],
    [() => injectionBlock("## A", { userName: Symbol("x") }), "`userName` must be a string, not a symbol"],
    // Keys that are not fields, `undefined` and `null` do not hide a field read after them.
    [() => injectionBlock("## A", { other: 1, scope: undefined, previous: null, userName: 5 }), "`userName` must be a string, not the number 5"],
    [() => injectionBlock("## A", { recalled: { selected: 1 } }), "`recalled.items` is required"],
    [() => injectionBlock("## A", { recalled: { selected: null, items: 2 } }), "`recalled.selected` must be a number, not null"],
    [() => validate("## A", "team"), 'expected an object, not the string "team"'],
    [() => planSave("## A", 1), "expected an object, not the number 1"],
    [() => validate("## A", [1]), "expected an object, not a list"],
    // A long string is described, not quoted.
    [() => validate("## A", { limits: { soft: "x".repeat(65) } }), "`limits.soft` must be a number, not a string of 65 UTF-16 units"],
    [() => validate("## A", { limits: { soft: "x".repeat(64) } }), `\`limits.soft\` must be a number, not the string "${"x".repeat(64)}"`],
  ];
  for (const [call, message] of messages) assert.equal(thrown(call).message, `invalid options: ${message}`);
});

test("a throw changes nothing: the next call works", () => {
  thrown(() => validate("## A", { scope: "nope" }));
  assert.equal(validate("## A").ok, true);
});
