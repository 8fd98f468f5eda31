// `recall`'s result (Recall) made of object literals: the numbers of mod.rs
// beside this file (its layout is documented there) and the one string every
// string of the result is sliced from. Imported by wasm.rs beside this file;
// it knows only the shape of the objects. Or kept (ScoredRecall): its
// selected items as their numbers, each made into its object only when
// asked for, for a caller that ranks many memories' items and keeps few.

/** A date's start where the item has no date (`NO_DATE`). */
const NO_DATE = -1;
/** A `why` value that is none (`NONE`). */
const NONE = -1;
/** The priority classes by index (`PRIORITIES`). */
const PRIORITIES = ["transient", "other", "facts", "core"];

// The numbers being read, where the next one is, and the string every
// string is sliced from: module state rather than variables of closures
// made per call, put back as src/wire/packed/packed.js does.
let strings;
let n;
let at = 0;

export function buildRecall(text, numbers) {
  return read(text, numbers, false);
}

export function keepRecall(text, numbers) {
  return read(text, numbers, true);
}

/** The Recall of `numbers`; with `keep`, its selected items kept as numbers (SelectedItems). */
function read(text, numbers, keep) {
  const outer = [strings, n, at];
  strings = text;
  n = numbers;
  at = 0;
  try {
    const content = string();
    const chars = n[at++];
    const estimatedTokens = n[at++];
    const totals = {
      items: n[at++],
      selected: n[at++],
      omitted: n[at++],
      relevant: n[at++],
      memoryChars: n[at++],
      budget: n[at++],
    };
    const titles = table();
    const terms = table();
    const reasons = table();
    const selected = keep ? kept(titles, terms) : items(titles, terms, null);
    const omitted = items(titles, terms, reasons);
    return { content, chars, estimatedTokens, selected, omitted, totals };
  } finally {
    [strings, n, at] = outer;
  }
}

function string() {
  const s = strings.slice(n[at], n[at + 1]);
  at += 2;
  return s;
}

function table() {
  const count = n[at++];
  const out = [];
  for (let k = 0; k < count; k++) out.push(string());
  return out;
}

/** The selected items, or with `reasons` the omitted ones. */
function items(titles, terms, reasons) {
  const count = n[at++];
  const out = [];
  for (let k = 0; k < count; k++) out.push(item(titles, terms, reasons));
  return out;
}

/** The item at `at`, and `at` past it. */
function item(titles, terms, reasons) {
  const section = titles[n[at++]];
  const text = string();
  let date = null;
  if (n[at] === NO_DATE) at += 2;
  else date = string();
  const range = {
    start: { line: n[at], column: n[at + 1], offset: n[at + 2] },
    end: { line: n[at + 3], column: n[at + 4], offset: n[at + 5] },
  };
  at += 6;
  const score = n[at++];
  const many = n[at++];
  const words = [];
  for (let w = 0; w < many; w++) words.push(terms[n[at++]]);
  const why = {
    terms: words,
    relevance: n[at],
    lexical: { raw: n[at + 1], normalized: n[at + 2] },
    semantic: n[at + 3] === NONE ? null : { raw: n[at + 4], normalized: n[at + 5] },
    recency: { raw: n[at + 6] === NONE ? null : n[at + 6], normalized: n[at + 7] },
    priority: { raw: PRIORITIES[n[at + 8]], normalized: n[at + 9] },
    pinned: n[at + 10] === 1,
    supersededBy: n[at + 11] === NONE ? null : n[at + 11],
  };
  at += 12;
  return reasons === null ? { section, text, date, range, score, why } : { section, text, date, range, score, why, reason: reasons[n[at++]] };
}

/** Where each item's numbers start from `at` on (`count` of them), `at` past the last. */
function starts(count) {
  const out = new Uint32Array(count);
  for (let k = 0; k < count; k++) {
    out[k] = at;
    // Section, text, date (two each), range, score, then the terms and the why.
    at += 12;
    at += n[at] + 13;
  }
  return out;
}

/**
 * The selected items kept as their numbers (a copy: `n` is a view of the
 * module's memory, valid during the call only), read one by one.
 */
function kept(titles, terms) {
  const count = n[at++];
  const from = at;
  const start = starts(count);
  const numbers = n.slice(from, at);
  for (let k = 0; k < count; k++) start[k] -= from;
  return new SelectedItems(strings, numbers, start, titles, terms);
}

/** The selected items of a ScoredRecall (API.md, "PreparedMemory"). */
class SelectedItems {
  #strings;
  #numbers;
  #start;
  #titles;
  #terms;

  constructor(text, numbers, start, titles, terms) {
    this.#strings = text;
    this.#numbers = numbers;
    this.#start = start;
    this.#titles = titles;
    this.#terms = terms;
  }

  get length() {
    return this.#start.length;
  }

  /** Item `k`'s score. */
  score(k) {
    return this.#numbers[this.#start[k] + 11];
  }

  /** Item `k`'s text. */
  text(k) {
    const at = this.#start[k];
    return this.#strings.slice(this.#numbers[at + 1], this.#numbers[at + 2]);
  }

  /** Item `k`'s section title. */
  section(k) {
    return this.#titles[this.#numbers[this.#start[k]]];
  }

  /** Item `k`'s date, null when it has none. */
  date(k) {
    const at = this.#start[k];
    return this.#numbers[at + 3] === NO_DATE ? null : this.#strings.slice(this.#numbers[at + 3], this.#numbers[at + 4]);
  }

  /** The length of item `k`'s text in UTF-16 units. */
  textLength(k) {
    const at = this.#start[k];
    return this.#numbers[at + 2] - this.#numbers[at + 1];
  }

  /** Item `k` as `recall`'s `selected[k]`. */
  item(k) {
    const outer = [strings, n, at];
    strings = this.#strings;
    n = this.#numbers;
    at = this.#start[k];
    try {
      return item(this.#titles, this.#terms, null);
    } finally {
      [strings, n, at] = outer;
    }
  }

  *[Symbol.iterator]() {
    for (let k = 0; k < this.length; k++) yield this.item(k);
  }
}
