// recall, expire and MemoryStore.sweep (docs/API.md, "Recall and expiry")
// through the built package: the shapes, determinism, the budget, coded
// errors for bad arguments, and a sweep that writes only when something
// expired.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore, errorCodes, expire, injectionBlock, recall, render } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";
import { thrown } from "./helpers.mjs";

const TEAM = `## Product Decisions
- 2025-01-10: Billing runs on Postgres 16, not MySQL
- 2025-03-02: Releases ship on Tuesdays after the QA sign-off

## Current Priorities
- 2025-05-20: Finish the billing migration before June 😀
- 2024-11-01: Hire a second designer

## Facts
- 2025-02-14: The office is in Zürich
Loose note without a date`;

function assertCode(fn, code, what) {
  const error = thrown(fn);
  assert.ok(error instanceof Error, `${what}: should throw an Error, got ${error}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.ok(errorCodes().includes(code), code);
}

test("recall: the matching items under their headings, explained", () => {
  const r = recall(TEAM, "the Ｂｉｌｌｉｎｇ?", { scope: "team", today: "2025-06-01" });
  assert.equal(
    r.content,
    "## Product Decisions\n- 2025-01-10: Billing runs on Postgres 16, not MySQL\n\n## Current Priorities\n- 2025-05-20: Finish the billing migration before June 😀",
  );
  assert.equal(r.chars, [...r.content].length, "chars are code points, not UTF-16 units");
  assert.equal(r.estimatedTokens, Math.ceil(r.chars / 4));
  assert.deepEqual(r.selected[0], {
    section: "Product Decisions",
    text: "Billing runs on Postgres 16, not MySQL",
    date: "2025-01-10",
    range: r.selected[0].range,
    score: r.selected[0].score,
    why: {
      terms: ["billing"],
      relevance: r.selected[0].why.relevance,
      lexical: r.selected[0].why.lexical,
      semantic: null,
      recency: { raw: 142, normalized: r.selected[0].why.recency.normalized },
      priority: { raw: "core", normalized: 1 },
      pinned: false,
      supersededBy: null,
    },
  });
  // Each item's range is its line in the text recalled from, in UTF-16 (as String#slice counts).
  assert.deepEqual(r.selected.map((s) => TEAM.slice(s.range.start.offset, s.range.end.offset)),
    r.selected.map((s) => `- ${s.date}: ${s.text}`));
  assert.deepEqual(r.selected.map((s) => TEAM.split("\n")[s.range.start.line - 1]), r.selected.map((s) => `- ${s.date}: ${s.text}`));
  assert.equal(r.selected[0].range.start.column, 1);
  const { relevance, recency, priority, lexical } = r.selected[0].why;
  assert.ok(relevance >= 0.5 && relevance <= 1 && relevance === lexical.normalized && lexical.raw > 0);
  assert.ok(Math.abs(r.selected[0].score - (relevance + 0.05 * recency.normalized + 0.03 * priority.normalized)) < 1e-6);
  const loose = r.omitted.find((o) => o.text === "Loose note without a date");
  assert.equal(loose.date, null, "null, never undefined");
  assert.equal(loose.reason, "no-match");
  assert.deepEqual(r.totals, { items: 6, selected: 2, omitted: 4, relevant: 2, memoryChars: [...render(TEAM)].length, budget: 4000 });
  assert.deepEqual(recall(TEAM, "the Ｂｉｌｌｉｎｇ?", { scope: "team", today: "2025-06-01" }), r, "deterministic");
});

test("recall: the budget is never exceeded, nothing is cut, every item is accounted for", () => {
  for (const budget of [1, 30, 60, 90, 150, 400]) {
    const r = recall(TEAM, "", { budget, pinned: ["facts"] });
    assert.ok(r.chars <= budget, `${r.chars} > ${budget}`);
    assert.equal(r.selected.length + r.omitted.length, 6);
    for (const s of r.selected) assert.ok(r.content.includes(s.text), s.text);
    for (const o of r.omitted) assert.ok(["budget", "too-large"].includes(o.reason), o.reason);
    assert.equal(render(r.content), r.content);
  }
  const tight = recall(TEAM, "", { budget: 60, pinned: ["FACTS"] });
  assert.equal(tight.selected[0].section, "Facts", "pinned sections first");
});

test("recall: weights and half-life change the order; bad options are coded errors", () => {
  const byRecency = recall(TEAM, "", { budget: 90, today: "2025-06-01", weights: { priority: 0 } });
  assert.equal(byRecency.selected[0].text, "Finish the billing migration before June 😀");
  const byPriority = recall(TEAM, "", { budget: 80, today: "2025-06-01", scope: "team", weights: { recency: 0 } });
  assert.equal(byPriority.selected[0].section, "Product Decisions");
  const cases = [
    [{ budget: 0 }, "options/invalid-budget"],
    [{ budget: 2.5 }, "options/invalid-budget"],
    [{ budget: NaN }, "options/invalid-budget"],
    [{ today: "2025-02-30" }, "options/invalid-date"],
    [{ scope: "org" }, "options/invalid-scope"],
    [{ weights: { recency: -1 } }, "options/invalid-weight"],
    [{ weights: { relevance: Infinity } }, "options/invalid-weight"],
    [{ halfLifeDays: 0 }, "options/invalid-weight"],
    [{ budget: "4000" }, "options/invalid"],
    [{ weights: 5 }, "options/invalid"],
  ];
  for (const [options, code] of cases) {
    assertCode(() => recall(TEAM, "x", options), code, JSON.stringify(options));
  }
  assertCode(() => recall(42, "x"), "input/not-a-string", "text");
  assertCode(() => recall(TEAM, null), "input/not-a-string", "query");
  assert.equal(recall(TEAM, "x", null).totals.budget, 4000, "null options are the defaults");
});

test("the prompt block of a recalled part says how many items of how many", () => {
  const r = recall(TEAM, "billing", { scope: "team", today: "2025-06-01" });
  const block = injectionBlock(r.content, { scope: "team", recalled: r.totals });
  const chars = [...r.content].length;
  assert.ok(
    block.startsWith(`<team_memory chars="${chars}" limit="25000" recalled="${r.totals.selected} of ${r.totals.items}">\n`),
    block,
  );
  assert.equal(r.totals.selected, 2);
  assert.equal(r.totals.items, 6);
  assert.ok(injectionBlock(r.content, { scope: "team", recalled: null }).startsWith(`<team_memory chars="${chars}" limit="25000">\n`));
  for (const recalled of [{ selected: 3, items: 2 }, { selected: -1, items: 2 }, { selected: 1.5, items: 2 }, { items: 2 }, { selected: "1", items: 2 }]) {
    assertCode(() => injectionBlock(r.content, { recalled }), "options/invalid", JSON.stringify(recalled));
  }
  assertCode(() => injectionBlock(r.content, { recalled: { selected: 1 } }), "options/invalid", "missing items");
});

test("expire: exactly the old entries, idempotent, coded errors", () => {
  const options = { today: "2025-06-01", policies: [{ section: "current priorities", maxAgeDays: 30 }] };
  const result = expire(TEAM, options);
  assert.deepEqual(result.archived, [{ section: "Current Priorities", date: "2024-11-01", text: "Hire a second designer" }]);
  assert.ok(!result.content.includes("Hire a second designer"));
  assert.ok(result.content.includes("## Current Priorities\n- 2025-05-20"));
  assert.deepEqual(expire(result.content, options), { content: result.content, archived: [] });
  const cases = [
    [{}, "options/invalid-date"],
    [{ today: "June" }, "options/invalid-date"],
    [{ today: "2025-06-01", policies: [{ section: "", maxAgeDays: 1 }] }, "options/invalid-policy"],
    [{ today: "2025-06-01", policies: [{ section: "Log", maxAgeDays: -1 }] }, "options/invalid-policy"],
    [{ today: "2025-06-01", policies: [{ section: "Log" }] }, "options/invalid-policy"],
    [{ today: "2025-06-01", policies: "Log" }, "options/invalid"],
  ];
  for (const [opts, code] of cases) {
    assertCode(() => expire(TEAM, opts), code, JSON.stringify(opts));
  }
  assertCode(() => expire(TEAM), "options/invalid-date", "missing options");
});

test("MemoryStore.sweep: one revision with the archive, then nothing", async () => {
  const host = memoryHost();
  let puts = 0;
  const counting = {
    get: (key) => host.get(key),
    put: (key, value, condition) => {
      puts += 1;
      return host.put(key, value, condition);
    },
  };
  const store = new MemoryStore(counting, { now: () => "2025-06-01T00:00:00.000Z" });
  const team = { scope: "team", id: "acme" };
  await store.save(team, TEAM, { baseRevision: 0 });
  const options = { today: "2025-06-01", policies: [{ section: "Current Priorities", maxAgeDays: 30 }], actor: "cron" };
  const swept = await store.sweep(team, options);
  assert.deepEqual(swept, {
    status: "swept",
    content: expire(TEAM, options).content,
    revision: 2,
    archived: [{ section: "Current Priorities", date: "2024-11-01", text: "Hire a second designer" }],
  });
  const [audit] = await store.history(team);
  assert.equal(audit.actor, "cron");
  assert.deepEqual(audit.archived, swept.archived);
  const before = puts;
  const again = await store.sweep(team, options);
  assert.deepEqual(again, { status: "unchanged", content: swept.content, revision: 2, archived: [] });
  assert.equal(puts, before, "an idle sweep writes nothing");
  await assert.rejects(store.sweep(team, { today: "2025-13-01" }), { code: "options/invalid-date" });
  await assert.rejects(store.sweep(team, { today: "2025-06-01", actor: "x".repeat(300) }), { code: "store/invalid-actor" });
  await assert.rejects(store.sweep({ scope: "team" }, options), { code: "options/invalid" });
  await assert.rejects(store.sweep(team), { code: "options/invalid-date" });
  assert.equal(puts, before);
});
