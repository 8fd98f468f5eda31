// Plain copies of loosely typed arguments, made in one call from
// WebAssembly instead of one call per property (src/wasm/plain.rs says why
// the copies are made, and words what goes wrong). Every read is inside
// `try`: a getter or a Proxy trap that throws ends the copy, never with an
// exception. The answer is `[COPIED, copy]`, `[TOO_DEEP]`, `[TOO_LARGE]` or
// `[THREW, description]`. A copied object has no prototype, so the reader
// (src/wasm/read.rs) finds only the object's own fields by name.

const COPIED = 0;
const TOO_DEEP = 1;
const TOO_LARGE = 2;
const THREW = 3;

const isEnumerable = Object.prototype.propertyIsEnumerable;

// What ends a copy early, told apart from anything a getter could throw.
const DEEP = Symbol("too deep");
const LARGE = Symbol("too large");

// How many more values the copy may hold: module state rather than a
// variable of a closure made per call (see packed.js). A getter that calls
// the package starts a copy of its own, which puts this one's back.
let budget = 0;

export function plainCopy(value, maxDepth, maxItems) {
  const outer = budget;
  budget = maxItems;
  try {
    return [COPIED, copy(value, maxDepth)];
  } catch (thrown) {
    if (thrown === DEEP) return [TOO_DEEP];
    if (thrown === LARGE) return [TOO_LARGE];
    return [THREW, describe(thrown)];
  } finally {
    budget = outer;
  }
}

function copy(value, depth) {
  if (typeof value !== "object" || value === null) return value;
  if (depth === 0) throw DEEP;
  // Asked first: it throws for a revoked Proxy, which `Array.isArray`
  // would also do.
  const keys = Reflect.ownKeys(value);
  const list = Array.isArray(value);
  // Without a prototype, `__proto__`, `constructor` and the like are
  // fields like any other, and a field that `Object.prototype` holds (put
  // there by other code) is not one of the copy's.
  const out = list ? [] : Object.create(null);
  for (const key of keys) {
    if (typeof key !== "string") continue;
    if (!isEnumerable.call(value, key)) continue;
    budget -= 1;
    if (budget < 0) throw LARGE;
    const item = copy(Reflect.get(value, key), depth - 1);
    // A key a list already has through its prototype (`__proto__`,
    // `constructor`, ...) is defined, so that it is a field of its own even
    // where that prototype is frozen or has a setter; any other is set,
    // which is faster.
    if (list && key in out) {
      Reflect.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = item;
    }
  }
  return out;
}

/**
 * `object[key]` of a copy (an object without a prototype, getters or
 * Proxies: this cannot throw), `null` read as `undefined` when
 * `absentIfNull`: what the reader (src/wasm/read.rs) reads a field with, in
 * one call.
 */
export function ownField(object, key, absentIfNull) {
  const value = object[key];
  return absentIfNull && value === null ? undefined : value;
}

/** How many fields a copy has (its own keys: a copy has no others). */
export function ownCount(object) {
  return Object.keys(object).length;
}

/** An Error's message, or the thrown value's type: never its own string conversion. */
function describe(thrown) {
  try {
    return thrown instanceof Error ? String(thrown.message) : typeof thrown;
  } catch {
    return typeof thrown;
  }
}
