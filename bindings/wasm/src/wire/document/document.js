// `parse`'s result (MemoryDocument) made of object literals: the numbers of
// mod.rs beside this file (its layout is documented there), the input string
// the strings are sliced from, and the names (the `kind`s, the implicit
// section's title, the legacy markers) from Rust. Imported by wasm.rs beside
// this file; it knows only the shape of the objects.

/** A string that is one of `names`, not a slice of the input (`NAMED`). */
const NAMED = 0xffffffff;
/** A line that is an entry (`ENTRY`); otherwise a raw line (`RAW`, 1). */
const ENTRY = 0;

// The numbers being read and where the next one is, with the strings'
// sources: module state rather than variables of closures made per call,
// put back as src/wire/packed/packed.js does.
let input;
let names;
let n;
let at = 0;

export function buildDocument(text, named, numbers) {
  const outer = [input, names, n, at];
  input = text;
  names = named;
  n = numbers;
  at = 0;
  try {
    const count = n[at++];
    const sections = [];
    for (let k = 0; k < count; k++) {
      const title = string();
      const explicit = n[at++] === 1;
      sections.push({ title, explicit, range: range(), lines: lines() });
    }
    return { sections, preamble: lines() };
  } finally {
    [input, names, n, at] = outer;
  }
}

function string() {
  const start = n[at];
  const end = n[at + 1];
  at += 2;
  return start === NAMED ? names[end] : input.slice(start, end);
}

function range() {
  const r = {
    start: { line: n[at], column: n[at + 1], offset: n[at + 2] },
    end: { line: n[at + 3], column: n[at + 4], offset: n[at + 5] },
  };
  at += 6;
  return r;
}

function lines() {
  const count = n[at++];
  const out = [];
  for (let k = 0; k < count; k++) {
    const kind = n[at++];
    if (kind === ENTRY) {
      const date = string();
      const text = string();
      const marker = n[at++];
      out.push({ kind: names[kind], date, text, legacyMarker: marker === 0 ? null : names[marker], range: range() });
    } else {
      const text = string();
      out.push({ kind: names[kind], text, range: range() });
    }
  }
  return out;
}
