// After a Rust panic the WebAssembly instance is poisoned: it aborted midway,
// with no destructor run, so it must not be called again. The Rust panic hook
// schedules a fresh instance for the next call (wasm-bindgen's
// `schedule_reinit`: the glue instantiates the same module again and marks
// the old instance's objects stale) and throws an `internal/panic` Error with
// the panic's message. A trap without a panic (out of memory, stack
// overflow) arrives here as a bare `WebAssembly.RuntimeError`: `readable`
// asks for the same recovery and turns it into `internal/panic` (the trap is
// its `cause`).
//
// Every export that calls into WebAssembly goes through `guard`; the store's
// async calls go through `settle`, which polls each call's task inside a
// `try` and waits for the host's answers itself
// (bindings/wasm/src/wasm/task.rs): a trap in a microtask nobody watches
// could not be caught, it would be an uncaught exception and the promise
// would never settle. An answer that comes after
// its call was abandoned goes nowhere: the old instance is not called again.
// `generation()` counts the replaced instances, so that `MemoryStore` knows
// when to make its Rust store again over the same host.
import { __panicError, __scheduleReinit } from "./memdoc.js";

let replaced = 0;
// How the value a task waits for settled (`Task::poll`,
// bindings/wasm/src/wasm/task.rs).
const FIRST = 0;
const FULFILLED = 1;
const REJECTED = 2;
// The calls in progress: each one's way to give up when the instance it runs
// on is replaced under it.
const inProgress = new Set();

/** How many times a panic replaced the instance. */
export const generation = () => replaced;

export function guard(fn) {
  return function guarded(...args) {
    try {
      return fn.apply(this, args);
    } catch (thrown) {
      throw readable(thrown);
    }
  };
}

export function readable(thrown) {
  if (thrown instanceof Error && thrown.code === "internal/panic") {
    replacedAfterPanic();
    return thrown;
  }
  if (!(thrown instanceof WebAssembly.RuntimeError)) return thrown;
  let error;
  try {
    __scheduleReinit();
    replacedAfterPanic();
    error = __panicError(`the WebAssembly module trapped: ${thrown.message}`);
  } catch {
    return thrown;
  }
  error.cause = thrown;
  return error;
}

function replacedAfterPanic() {
  replaced += 1;
  for (const abandon of [...inProgress]) abandon();
}

/**
 * A promise for the task `start()` returns (an internal `__Task` of the
 * glue): poll it now, and again each time the value it waits for settles
 * (`task.awaited()`, after a poll that answered `undefined`; results are never
 * `undefined`), until it answers a value or throws. If a
 * panic elsewhere replaces the instance meanwhile, the call is abandoned: it
 * rejects with `internal/panic` (what it had written to the host stays).
 */
export function settle(start) {
  return new Promise((resolve, reject) => {
    let task;
    let done = false;
    const finish = (settleWith, value) => {
      done = true;
      inProgress.delete(abandon);
      settleWith(value);
    };
    // A task of a replaced instance is stale: it is detached, never freed
    // (freeing it would free its address in the new instance).
    const detach = () => task.__destroy_into_raw?.();
    const abandon = () => {
      if (done) return;
      let error;
      try {
        error = __panicError("a panic in another call replaced the WebAssembly instance during this call");
      } catch (thrown) {
        error = thrown;
      }
      finish(reject, error);
      detach();
    };
    // `settled`: 0 for the first poll, then 1 (fulfilled) or 2 (rejected)
    // with how the value the task waits for settled.
    const step = (settled, value) => {
      if (done) return;
      let result;
      try {
        result = task.poll(settled, value);
      } catch (thrown) {
        inProgress.delete(abandon);
        const before = replaced;
        finish(reject, readable(thrown));
        if (replaced === before) task.free();
        else detach();
        return;
      }
      if (result !== undefined) {
        finish(resolve, result);
        task.free();
        return;
      }
      // A host's answer or the rewrite callback's: once it settles, the task
      // goes on from where it waits, unless it was abandoned meanwhile. A
      // promise of our own, resolved with the answer: a `then` or
      // `constructor` of the answer's that throws rejects it, never throws here.
      new Promise((settleWith) => settleWith(task.awaited())).then(fulfilled, rejected);
    };
    const fulfilled = (value) => step(FULFILLED, value);
    const rejected = (reason) => step(REJECTED, reason);
    try {
      task = start();
    } catch (thrown) {
      finish(reject, readable(thrown));
      return;
    }
    inProgress.add(abandon);
    step(FIRST);
  });
}
