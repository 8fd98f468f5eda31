// Plain copies of loosely typed arguments, made in one call from
// WebAssembly instead of one call per property (src/wasm/plain.rs says why
// the copies are made, and words what goes wrong). Every read is inside
// `try`: a getter or a Proxy trap that throws ends the copy, never with an
// exception. The answer is `[COPIED, copy]`, `[TOO_DEEP]`, `[TOO_LARGE]` or
// `[THREW, description]`.

const COPIED = 0;
const TOO_DEEP = 1;
const TOO_LARGE = 2;
const THREW = 3;

const isEnumerable = Object.prototype.propertyIsEnumerable;

export function plainCopy(value, maxDepth, maxItems) {
  // What ends a copy early, told apart from anything a getter could throw.
  const deep = {};
  const large = {};
  let budget = maxItems;
  const copy = (value, depth) => {
    if (typeof value !== "object" || value === null) return value;
    if (depth === 0) throw deep;
    // Asked first: it throws for a revoked Proxy, which `Array.isArray`
    // would also do.
    const keys = Reflect.ownKeys(value);
    const out = Array.isArray(value) ? [] : {};
    for (const key of keys) {
      if (typeof key !== "string") continue;
      if (!isEnumerable.call(value, key)) continue;
      budget -= 1;
      if (budget < 0) throw large;
      const item = copy(Reflect.get(value, key), depth - 1);
      // A key the new object already has through its prototype
      // (`__proto__`, `constructor`, `toString`, ...) is defined, so that it
      // is a field of its own even where that prototype is frozen or has a
      // setter; any other is set, which is faster.
      if (key in out) {
        Reflect.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      } else {
        out[key] = item;
      }
    }
    return out;
  };
  try {
    return [COPIED, copy(value, maxDepth)];
  } catch (thrown) {
    if (thrown === deep) return [TOO_DEEP];
    if (thrown === large) return [TOO_LARGE];
    return [THREW, describe(thrown)];
  }
}

/** An Error's message, or the thrown value's type: never its own string conversion. */
function describe(thrown) {
  try {
    return thrown instanceof Error ? String(thrown.message) : typeof thrown;
  } catch {
    return typeof thrown;
  }
}
