// The rate limiter and the refusals of unknown keys, over a clock the test
// moves (the HTTP suites check both through the API on workerd and Deno).
import assert from "node:assert/strict";
import { test } from "node:test";

import { RateLimiter } from "../src/rate-limit.js";
import { SUMMARY_CLIENTS, SUMMARY_INTERVAL_MS, UnknownKeys } from "../src/unknown-keys.js";

test("a flood of new names does not reset a limited key: refilled, then oldest counters go first, never all", () => {
  let now = 0;
  const limiter = new RateLimiter(1, () => now);
  for (let i = 0; i < 9000; i += 1) limiter.take(`old-${i}`);
  now = 59_000;
  assert.equal(limiter.take("victim"), 0);
  assert.ok(limiter.take("victim") > 0, "limited");
  // The old names' buckets have refilled: they go first.
  now = 61_000;
  for (let i = 0; i < 9000; i += 1) limiter.take(`flood-${i}`);
  assert.ok(limiter.take("victim") > 0, "still limited after 9,000 new names");
  assert.ok(limiter.buckets.size <= 10_000, `${limiter.buckets.size} counters kept`);
});

test("the limiter keeps at most its number of counters", () => {
  const limiter = new RateLimiter(60, () => 0, 50);
  for (let i = 0; i < 500; i += 1) limiter.take(`n${i}`);
  assert.equal(limiter.buckets.size, 50);
});

/** A TeamStorage in memory (the audit's keys sorted, as Durable Objects and Deno KV sort them). */
function mapStorage(team = true) {
  const map = new Map(team ? [["team", { team: "t" }]] : []);
  const name = (key) => key.join("/");
  return {
    map,
    get: async (key) => map.get(name(key)),
    put: async (key, value) => void map.set(name(key), value),
    deleteMany: async (keys) => keys.forEach((k) => map.delete(name(k))),
    async list(prefix, o = {}) {
      let keys = [...map.keys()].filter((k) => k.startsWith(`${name(prefix)}/`)).sort();
      if (o.end) keys = keys.filter((k) => k < name(o.end));
      if (o.reverse) keys.reverse();
      if (o.limit !== undefined) keys = keys.slice(0, o.limit);
      return keys.map((k) => ({ key: k.split("/"), value: map.get(k) }));
    },
  };
}

const audit = (storage) => [...storage.map].filter(([k]) => k.startsWith("audit/")).map(([, v]) => v);

test("unknown keys: limited per client and per team; one summary entry per interval, rewritten as it grows", async () => {
  let now = 1_000_000;
  const refusals = new UnknownKeys({ ratePerMinute: 10, auditMax: 100 }, () => now);
  const storage = mapStorage();
  const answers = [];
  for (let i = 0; i < 25; i += 1) {
    const wait = refusals.take("t", "10.0.0.1");
    answers.push(wait);
    if (wait === 0) await refusals.record(storage, "t", "10.0.0.1");
  }
  assert.equal(answers.filter((w) => w === 0).length, 10, "one client: its rate");
  // Other clients share the team's rate, which the first one used up.
  assert.ok(refusals.take("t", "10.0.0.2") > 0, "the team's rate is spent");
  now += 1000;
  await refusals.flush(storage, "t");
  const [entry, ...more] = audit(storage);
  assert.deepEqual(more, [], "one entry");
  assert.equal(entry.action, "auth.unknown-key");
  assert.equal(entry.count, 10);
  assert.equal(entry.limited, 16);
  assert.deepEqual(entry.clients, [{ client: "10.0.0.1", count: 10 }]);
  assert.match(entry.summary, /^10 refused requests with unknown keys from 10\.0\.0\.1 \(10\)/);
  assert.equal(entry.keyId, null);

  now += SUMMARY_INTERVAL_MS;
  for (let i = 0; i < SUMMARY_CLIENTS + 5; i += 1) {
    if (refusals.take("t", `10.1.0.${i}`) === 0) await refusals.record(storage, "t", `10.1.0.${i}`);
  }
  const entries = audit(storage);
  assert.equal(entries.length, 2, "a new interval, a new entry");
  const second = entries.find((e) => e.at !== entry.at);
  assert.equal(second.clients.length, SUMMARY_CLIENTS, "at most SUMMARY_CLIENTS named");
  assert.equal(second.count, 10, "the team's rate");
});

test("unknown keys: nothing is written for a team that does not exist", async () => {
  const refusals = new UnknownKeys({ ratePerMinute: 10, auditMax: 100 });
  const storage = mapStorage(false);
  for (let i = 0; i < 5; i += 1) if (refusals.take("ghost", "10.0.0.1") === 0) await refusals.record(storage, "ghost", "10.0.0.1");
  assert.deepEqual([...storage.map.keys()], []);
});
