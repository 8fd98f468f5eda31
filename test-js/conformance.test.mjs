// Every case of tests/conformance/cases.json, through the built package.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { injectionBlock, normalizeHeading, parse, planSave, render, validate } from "memdoc";
import { casesPath } from "./helpers.mjs";

const { cases } = JSON.parse(readFileSync(casesPath, "utf8"));

const run = {
  render: ({ input, expect }) => assert.equal(render(input.text), expect.text),
  normalizeHeading: ({ input, expect }) => assert.equal(normalizeHeading(input.title), expect.text),
  entry: ({ input, expect }) => {
    const first = parse(`## T\n${input.line}`).sections[0]?.lines[0];
    const got = first?.kind === "entry" ? { date: first.date, text: first.text } : null;
    assert.deepEqual(got, expect.entry);
  },
  isHeading: ({ input, expect }) => {
    assert.equal(parse(input.line).sections.some((s) => s.explicit), expect.heading);
  },
  validate: ({ input, expect }) => {
    const { diagnostics } = validate(input.text, { scope: input.scope, previous: input.previous });
    for (const [code, n] of Object.entries(expect.codes)) {
      assert.equal(diagnostics.filter((d) => d.code === code).length, n, `${code} in ${JSON.stringify(diagnostics)}`);
    }
  },
  planSave: ({ input, expect }) => {
    const plan = planSave(input.text, { scope: input.scope, previous: input.previous });
    assert.equal(plan.status, expect.status, JSON.stringify(plan.diagnostics));
    assert.equal(plan.content, expect.content ?? render(input.text));
  },
  injectionBlock: ({ input, expect }) => {
    const got = injectionBlock(input.content, { scope: input.scope, userName: input.userName });
    if (expect.text !== undefined) assert.equal(got, expect.text);
    if (expect.startsWith !== undefined) assert.ok(got.startsWith(expect.startsWith), got);
    for (const needle of expect.contains ?? []) assert.ok(got.includes(needle), `${got} should contain ${needle}`);
    for (const [needle, n] of Object.entries(expect.count ?? {})) assert.equal(got.split(needle).length - 1, n, needle);
  },
};

test("the whole suite is loaded", () => {
  assert.ok(cases.length >= 100, `got ${cases.length} cases`);
  for (const c of cases) assert.ok(run[c.op], `unknown op ${c.op} in ${c.id}`);
});

for (const c of cases) {
  test(`${c.id} ${c.op}: ${c.note}`, () => run[c.op](c));
}
