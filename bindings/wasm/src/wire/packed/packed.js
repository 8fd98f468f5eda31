// A result made of the numbers and the one string of mod.rs beside this file
// (its layout is documented there): the value serde-wasm-bindgen's
// JSON-compatible serializer would make, built here without a call across the
// boundary per field. Imported by wasm.rs beside this file.

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const NUMBER = 3;
const STRING = 4;
const NAME = 5;
const ARRAY = 6;
const OBJECT = 7;
const MAP = 8;

// The names (fields' and variants') sent so far, by index: kept from call to
// call, so that each is one string, sliced once. The new ones (`fresh`: index,
// start, end) are taken in before the value is made, so that a value that
// fails midway leaves every name known.
const names = [];

// The value being read: its strings, its numbers and where the next one is.
// Module state rather than the variables of closures made per call, which
// were slower to read (figures in BENCHMARKS.md). A call made while another
// reads (from a setter on Object.prototype) puts the outer call's state back
// when it ends, and the last call leaves neither the string nor the view of
// WebAssembly's memory.
let strings;
let n;
let at = 0;

export function unpack(text, numbers, fresh) {
  for (let k = 0; k < fresh.length; k += 3) names[fresh[k]] = text.slice(fresh[k + 1], fresh[k + 2]);
  const outer = [strings, n, at];
  strings = text;
  n = numbers;
  at = 0;
  try {
    return value();
  } finally {
    [strings, n, at] = outer;
  }
}

function value() {
  switch (n[at++]) {
    case NULL:
      return null;
    case FALSE:
      return false;
    case TRUE:
      return true;
    case NUMBER:
      return n[at++];
    case STRING: {
      const s = strings.slice(n[at], n[at + 1]);
      at += 2;
      return s;
    }
    case NAME:
      return names[n[at++]];
    case ARRAY: {
      const count = n[at++];
      const array = [];
      for (let k = 0; k < count; k++) array.push(value());
      return array;
    }
    case OBJECT: {
      const count = n[at++];
      const object = {};
      for (let k = 0; k < count; k++) {
        const key = names[n[at++]];
        object[key] = value();
      }
      return object;
    }
    case MAP: {
      // Keys from the data: defined, so that "__proto__" is a key too.
      const count = n[at++];
      const object = {};
      for (let k = 0; k < count; k++) {
        const key = value();
        Object.defineProperty(object, key, { value: value(), writable: true, enumerable: true, configurable: true });
      }
      return object;
    }
    default:
      throw new Error(`memdoc: no value is tagged ${n[at - 1]}`);
  }
}
