// What the package promises after a Rust panic: the call throws (or rejects
// with) an Error with code internal/panic and the panic's message; the
// poisoned WebAssembly instance is never called again (the next call runs on
// a fresh one); a MemoryStore keeps working over its host with everything
// the host acknowledged; a call in progress on the replaced instance rejects
// instead of hanging. Runs against the `test-panic` build (scripts/test.mjs
// makes it in target/pkg-test-panic), the only build with a way to panic.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { root, thrown } from "./helpers.mjs";

const pkg = join(root, "target", "pkg-test-panic");
const panicText = "\u0000memdoc:test-panic";
const trapText = "\u0000memdoc:test-trap";
const at = "2025-01-01T00:00:00.000Z";

async function load() {
  assert.ok(existsSync(join(pkg, "node.js")), `${pkg} is missing: run node scripts/build.mjs --test-panic --out target/pkg-test-panic`);
  const memdoc = await import(pathToFileURL(join(pkg, "node.js")));
  // The wasm-bindgen glue itself, whose objects know their instance.
  const glue = await import(pathToFileURL(join(pkg, "memdoc.js")));
  const { memoryHost } = await import(pathToFileURL(join(pkg, "adapters", "memory.js")));
  return { memdoc, glue, memoryHost };
}

/** Run `fn` with console.error silenced (console_error_panic_hook logs each panic). */
async function quietly(fn) {
  const error = console.error;
  console.error = () => {};
  try {
    return await fn();
  } finally {
    console.error = error;
  }
}

/** A glue-level store made now: it belongs to the instance that runs now. */
const rawStore = (glue, memoryHost) => new glue.MemoryStore(memoryHost());

/** Assert that `raw` belongs to an instance that has been replaced. */
function assertStale(raw, what) {
  const error = thrown(() => raw.load({ scope: "user", id: "x" }));
  assert.match(error.message, /stale object from previous Wasm instance/, `${what}: ${error.message}`);
}

test("the release package has no way to panic on purpose", async () => {
  const { parse } = await import("memdoc");
  assert.deepEqual(parse(panicText).sections, [], "the trigger should be plain text in a release build");
  assert.deepEqual(parse(trapText).sections, [], "the trigger should be plain text in a release build");
});

test("a panic throws internal/panic with its message, and the next call runs on a fresh instance", async () => {
  const { memdoc, glue, memoryHost } = await load();
  const before = rawStore(glue, memoryHost);
  const error = await quietly(() => thrown(() => memdoc.parse(panicText)));
  assert.ok(error instanceof Error, `should be an Error, got ${error}`);
  assert.ok(!(error instanceof WebAssembly.RuntimeError), "the bare trap should not leak");
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /test panic requested through the boundary/);
  assert.match(error.message, /src\/wasm\/panic\.rs/, "should say where it panicked");
  assert.equal(memdoc.render("##  A "), "## A", "the next call should work");
  assertStale(before, "an object of the instance that panicked");
  assert.equal(memdoc.parse("## B").sections[0].title, "B");
});

test("a trap without a panic is internal/panic too, with the trap as cause, and recovers the same way", async () => {
  const { memdoc, glue, memoryHost } = await load();
  const before = rawStore(glue, memoryHost);
  const error = await quietly(() => thrown(() => memdoc.parse(trapText)));
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /trapped: unreachable/);
  assert.ok(error.cause instanceof WebAssembly.RuntimeError, "the trap should be the cause");
  assert.equal(memdoc.render("##  A "), "## A", "the next call should work");
  assertStale(before, "an object of the instance that trapped");
});

test("after a panic inside an async store call, the same store still has every acknowledged save", async () => {
  const { memdoc, memoryHost } = await load();
  const kv = memoryHost();
  // The host's answer reaches the boundary after an await, in a later poll:
  // the panic happens while the call is in progress, not when it starts.
  const host = {
    get: async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return key.includes("boom") ? { value: panicText, version: "1" } : kv.get(key);
    },
    put: (...args) => kv.put(...args),
  };
  const store = new memdoc.MemoryStore(host, { now: () => at });
  const alice = { scope: "user", id: "alice" };
  const first = "## A\n- 2025-01-01: x";
  assert.equal((await store.save(alice, first, { baseRevision: 0 })).revision, 1);

  const error = await quietly(() =>
    store.load({ scope: "user", id: "boom" }).then(
      () => assert.fail("should reject"),
      (e) => e,
    ),
  );
  assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError), `got ${error}`);
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /test panic requested through the boundary/);

  const loaded = await store.load(alice);
  assert.deepEqual([loaded.content, loaded.revision], [first, 1], "the acknowledged save should be read again");
  const second = `${first}\n- 2025-01-02: y`;
  const saved = await store.save(alice, second, { baseRevision: 1 });
  assert.deepEqual([saved.status, saved.revision], ["saved", 2], "the store should keep saving");
  assert.deepEqual(
    (await store.history(alice)).map((h) => h.revision),
    [2, 1],
  );
  assert.equal(await store.revision(alice, 1), first);
  store.free();
});

test("a call in progress when another call panics rejects with internal/panic instead of hanging", async () => {
  const { memdoc, memoryHost } = await load();
  const kv = memoryHost();
  const bob = { scope: "user", id: "bob" };
  const plain = new memdoc.MemoryStore(kv, { now: () => at });
  const content = "## B\n- 2025-01-01: kept";
  await plain.save(bob, content, { baseRevision: 0 });

  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  const slow = new memdoc.MemoryStore(
    {
      get: async (key) => {
        await gate;
        return kv.get(key);
      },
      put: (...args) => kv.put(...args),
    },
    { now: () => at },
  );
  const pending = slow.load(bob);
  await new Promise((resolve) => setTimeout(resolve, 1));
  const panic = await quietly(() => thrown(() => memdoc.parse(panicText)));
  assert.equal(panic.code, "internal/panic");
  const abandoned = await pending.then(
    () => assert.fail("should reject"),
    (e) => e,
  );
  assert.equal(abandoned.code, "internal/panic");
  assert.match(abandoned.message, /replaced the WebAssembly instance during this call/);
  open();
  assert.equal((await slow.load(bob)).content, content, "the store should work on the new instance");
  assert.equal((await plain.load(bob)).revision, 1);
});

test("a recall prepared before a panic throws internal/panic when finished, and a new one works", async () => {
  const { memdoc } = await load();
  const memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16";
  const before = new memdoc.PreparedRecall(memory, "postgres");
  assert.deepEqual(before.items, ["Services use PostgreSQL 16"]);
  await quietly(() => thrown(() => memdoc.parse(panicText)));
  const error = thrown(() => before.finish());
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /since this recall was prepared/);
  assert.equal(thrown(() => before.items).code, "internal/panic", "its items are gone too");
  before.free();
  const after = new memdoc.PreparedRecall(memory, "postgres");
  assert.equal(after.finish().content, memory);
  assert.equal(memdoc.recall(memory, "postgres").content, memory, "recall is made of it");
});

test("a memory prepared before a panic throws internal/panic when recalled from, and a new one works", async () => {
  const { memdoc } = await load();
  const memory = "## Facts\n- 2025-03-01: Services use PostgreSQL 16";
  const before = new memdoc.PreparedMemory(memory);
  const held = new memdoc.PreparedMemory(memory);
  assert.equal(before.recall("postgres").content, memory);
  held.holdVectors("m", [1, 0], 2);
  assert.equal(held.recallWithHeldVectors("postgres", {}, [1, 0]).content, memory);
  await quietly(() => thrown(() => memdoc.parse(panicText)));
  const error = thrown(() => before.recall("postgres"));
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /since this memory was prepared/);
  assert.equal(thrown(() => before.items).code, "internal/panic", "its items are gone too");
  assert.equal(thrown(() => held.recallWithHeldVectors("postgres", {}, [1, 0])).code, "internal/panic", "its vectors are gone too");
  assert.equal(thrown(() => held.holdVectors("m", [1, 0], 2)).code, "internal/panic");
  before.free();
  held.free();
  const after = new memdoc.PreparedMemory(memory);
  assert.equal(after.recall("postgres").content, memory);
  after.free();
});
