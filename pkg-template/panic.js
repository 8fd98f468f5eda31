// Rust panics in WebAssembly abort as a bare `RuntimeError: unreachable`.
// `guard` turns that into the `internal/panic` Error the Rust side built from
// the recorded panic message (the original trap is its `cause`). Every
// export that calls into WebAssembly goes through it.
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
