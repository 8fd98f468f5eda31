// Racing writers through the real WebAssembly store: several writers save
// to one memory at once over the in-memory host, whose calls each wait a
// random 0-2 ms first, so one writer's read and write straddle the others'. A
// writer retries on `conflict` after re-reading. No acknowledged entry may
// be lost and every acknowledged save must be exactly one revision.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStore } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";

const sleep = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));

/** The in-memory host with a random delay before every call. */
function slowHost() {
  const inner = memoryHost();
  const counts = { get: 0, put: 0 };
  const delayed = (method) => async (...args) => {
    counts[method] += 1;
    await sleep();
    return inner[method](...args);
  };
  return { get: delayed("get"), put: delayed("put"), counts };
}

const ref = { scope: "team", id: "race" };
// The log grows past the default hard limit; size rules are not under test.
const limits = { soft: 200_000, hard: 200_000 };

async function race({ writers, saves, onConflict }) {
  const host = slowHost();
  const store = new MemoryStore(host, { limits, historyDepth: 4 });
  const acknowledged = [];
  const revisions = [];
  let conflicts = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < saves; i += 1) {
        const entry = `- 2025-01-01: w${w} s${i}`;
        let base = await store.load(ref);
        for (;;) {
          const updated = base.content ? `${base.content}\n${entry}` : `## Log\n${entry}`;
          const out = await store.save(ref, updated, { baseRevision: base.revision, actor: `writer-${w}`, onConflict });
          if (out.status === "saved") {
            assert.ok(out.content.includes(entry), "a saved outcome should hold the entry");
            acknowledged.push(entry);
            revisions.push(out.revision);
            break;
          }
          assert.equal(out.status, "conflict", out.notice);
          conflicts += 1;
          base = await store.load(ref);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const final = await store.load(ref);
  const lines = final.content.split("\n").filter((l) => l.startsWith("- "));
  return { acknowledged, revisions, conflicts, seconds, final, lines, host };
}

function check({ acknowledged, revisions, final, lines }, writers, saves) {
  assert.equal(acknowledged.length, writers * saves);
  const present = new Set(lines);
  const lost = acknowledged.filter((e) => !present.has(e));
  assert.deepEqual(lost, [], "every acknowledged entry should be in the final content");
  assert.equal(lines.length, acknowledged.length, "no entry should be stored twice or invented");
  assert.equal(final.revision, acknowledged.length, "the final revision should equal the number of acknowledged saves");
  assert.deepEqual(
    [...revisions].sort((a, b) => a - b),
    Array.from({ length: acknowledged.length }, (_, i) => i + 1),
    "each acknowledged save should be exactly one revision",
  );
  // Each writer's entries are in its own order.
  for (let w = 0; w < writers; w += 1) {
    const mine = lines.filter((l) => l.startsWith(`- 2025-01-01: w${w} s`));
    assert.deepEqual(mine, Array.from({ length: saves }, (_, i) => `- 2025-01-01: w${w} s${i}`));
  }
}

test("8 writers x 200 saves, retrying on conflict after re-reading: zero lost updates", async (t) => {
  const writers = 8;
  const saves = 200;
  const result = await race({ writers, saves, onConflict: "reject" });
  check(result, writers, saves);
  assert.ok(result.conflicts > 0, "the writers should have raced");
  t.diagnostic(
    `${writers} writers x ${saves} saves: ${result.acknowledged.length} acknowledged, ${result.conflicts} conflicts retried, ` +
      `${result.host.counts.get} gets + ${result.host.counts.put} puts, ${result.seconds.toFixed(1)} s`,
  );
});

test('4 writers x 50 saves with onConflict "merge": stale saves merge, none is lost', async (t) => {
  const writers = 4;
  const saves = 50;
  const result = await race({ writers, saves, onConflict: "merge" });
  check(result, writers, saves);
  t.diagnostic(
    `merge: ${writers} writers x ${saves} saves: ${result.conflicts} conflicts retried (races between read and write), ${result.seconds.toFixed(1)} s`,
  );
});
