// A Rust panic surfaces as a thrown Error with code internal/panic and the
// panic's message. Runs against the `test-panic` build (scripts/test.mjs
// makes it in target/pkg-test-panic), the only build with a way to panic.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { root, thrown } from "./helpers.mjs";

const entry = join(root, "target", "pkg-test-panic", "node.js");
const trigger = "\u0000memdoc:test-panic";

test("the release package has no way to panic on purpose", async () => {
  const { parse } = await import("memdoc");
  assert.deepEqual(parse(trigger).sections, [], "the trigger should be plain text in a release build");
});

test("a panic throws Error{code: internal/panic} with the message, and the module keeps working", async () => {
  assert.ok(existsSync(entry), `${entry} is missing: run node scripts/build.mjs --test-panic --out target/pkg-test-panic`);
  const memdoc = await import(pathToFileURL(entry));
  const quiet = console.error;
  console.error = () => {}; // console_error_panic_hook also logs the panic
  let error;
  try {
    error = thrown(() => memdoc.parse(trigger));
  } finally {
    console.error = quiet;
  }
  assert.ok(error instanceof Error, `should be an Error, got ${error}`);
  assert.ok(!(error instanceof WebAssembly.RuntimeError), "the bare trap should not leak");
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /test panic requested through the boundary/);
  assert.match(error.message, /src\/wasm\/panic\.rs/, "should say where it panicked");
  assert.ok(error.cause instanceof WebAssembly.RuntimeError, "the trap should be the cause");
  assert.equal(memdoc.render("##  A "), "## A", "later calls should still work");
  assert.equal(memdoc.parse("## B").sections[0].title, "B");
});

test("a panic inside an async store call rejects its promise with internal/panic, and later calls work", async () => {
  const memdoc = await import(pathToFileURL(entry));
  const { memoryHost } = await import(pathToFileURL(join(root, "target", "pkg-test-panic", "adapters", "memory.js")));
  // The host's answer reaches the boundary after an await, in a later poll:
  // the panic happens while the call is in progress, not when it starts.
  let gets = 0;
  const host = {
    get: async () => {
      gets += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { value: trigger, version: "1" };
    },
    put: async () => ({ ok: false }),
  };
  const store = new memdoc.MemoryStore(host, { now: () => "2025-01-01T00:00:00.000Z" });
  const quiet = console.error;
  console.error = () => {};
  let error;
  try {
    const pending = store.load({ scope: "user", id: "alice" });
    assert.ok(pending instanceof Promise);
    error = await pending.then(
      () => assert.fail("should reject"),
      (e) => e,
    );
  } finally {
    console.error = quiet;
  }
  assert.equal(gets, 1, "the host should have been called");
  assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError), `got ${error}`);
  assert.equal(error.code, "internal/panic");
  assert.match(error.message, /test panic requested through the boundary/);
  assert.ok(error.cause instanceof WebAssembly.RuntimeError, "the trap should be the cause");

  const fresh = new memdoc.MemoryStore(memoryHost(), { now: () => "2025-01-01T00:00:00.000Z" });
  const saved = await fresh.save({ scope: "user", id: "bob" }, "## A\n- 2025-01-01: x", { baseRevision: 0 });
  assert.equal(saved.revision, 1, "the module should keep working");
  assert.equal((await fresh.load({ scope: "user", id: "bob" })).content, "## A\n- 2025-01-01: x");
  assert.equal(memdoc.render("##  A "), "## A");
});
