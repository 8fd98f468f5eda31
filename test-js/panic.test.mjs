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
