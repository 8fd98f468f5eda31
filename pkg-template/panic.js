// Rust panics in WebAssembly abort as a bare `RuntimeError: unreachable`.
// `guard` turns that into the `internal/panic` Error the Rust side built from
// the recorded panic message (the original trap is its `cause`). Every
// export that calls into WebAssembly goes through it; the store's async
// calls go through `settle`, which polls each call's task inside a `try` (a
// trap in a microtask of wasm-bindgen-futures could not be caught: it would
// be an uncaught exception and the promise would never settle).
import { __takePanic } from "./memdoc.js";

export function guard(fn) {
  return function guarded(...args) {
    try {
      return fn.apply(this, args);
    } catch (trap) {
      throw readable(trap);
    }
  };
}

export function readable(trap) {
  if (!(trap instanceof WebAssembly.RuntimeError)) return trap;
  let error;
  try {
    error = __takePanic();
  } catch {
    return trap;
  }
  error.cause = trap;
  return error;
}

/**
 * A promise for the task `start()` returns (an internal `__Task` of the
 * glue): poll it now, and again each time it wakes, until it answers a value
 * (`undefined` means pending; results are never `undefined`) or throws.
 */
export function settle(start) {
  return new Promise((resolve, reject) => {
    let task;
    let done = false;
    const finish = (settleWith, value) => {
      done = true;
      settleWith(value);
    };
    const step = () => {
      if (done) return;
      let value;
      try {
        value = task.poll(wake);
      } catch (error) {
        finish(reject, readable(error));
        if (error instanceof WebAssembly.RuntimeError) {
          // A trapped task is in no state to be dropped: detach it from the
          // glue's finalizer and leave its memory behind.
          task.__destroy_into_raw?.();
        } else {
          task.free();
        }
        return;
      }
      if (value !== undefined) {
        finish(resolve, value);
        task.free();
      }
    };
    const wake = () => queueMicrotask(step);
    try {
      task = start();
    } catch (error) {
      finish(reject, readable(error));
      return;
    }
    step();
  });
}

