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
// `try` (a trap in a microtask of wasm-bindgen-futures could not be caught:
// it would be an uncaught exception and the promise would never settle).
// `generation()` counts the replaced instances, so that `MemoryStore` knows
// when to make its Rust store again over the same host.
import { __panicError, __scheduleReinit } from "./memdoc.js";

let replaced = 0;
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
 * `object` (a host, or store options) with its methods `names` answering
 * promises that settle only while the instance of generation `born` lives.
 * A call of a replaced instance may still await its host; once that answer
 * comes, it must go nowhere: the old instance's callbacks would throw, an
 * unhandled rejection. Everything else is `object`'s own (getters run on it,
 * its methods are called with the `this` they would have had).
 */
export function forInstance(object, born, names) {
  if (object === null || typeof object !== "object") return object;
  const never = new Promise(() => {});
  const live = (settled) => (replaced === born ? settled() : never);
  const proxy = new Proxy(object, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (!names.includes(key) || typeof value !== "function") return value;
      return function (...args) {
        const self = this === proxy ? target : this;
        return Promise.resolve(Reflect.apply(value, self, args)).then(
          (answer) => live(() => answer),
          (error) => live(() => Promise.reject(error)),
        );
      };
    },
  });
  return proxy;
}

/**
 * A promise for the task `start()` returns (an internal `__Task` of the
 * glue): poll it now, and again each time it wakes, until it answers a value
 * (`undefined` means pending; results are never `undefined`) or throws. If a
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
    const step = () => {
      if (done) return;
      let value;
      try {
        value = task.poll(wake);
      } catch (thrown) {
        inProgress.delete(abandon);
        const before = replaced;
        finish(reject, readable(thrown));
        if (replaced === before) task.free();
        else detach();
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
    } catch (thrown) {
      finish(reject, readable(thrown));
      return;
    }
    inProgress.add(abandon);
    step();
  });
}
