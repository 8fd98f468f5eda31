// What the hub makes from a memory's text and keeps for the next request
// (its prepared memory, its items' vectors): a cache per process, by a key
// naming the team, the memory and whatever else the value depends on, each
// entry answering only for the very text it was made from. The text is
// compared whole, not hashed as a key: memories are thousands of
// characters, loaded afresh for each request, and hashing one cost more
// than recalling from it. Another text of the memory replaces the entry.
// Bounded by bytes (an entry's own, counted again when it grows), the least recently used dropped first; never shared
// across teams, since the team is in every key.

export class TextCache {
  #max;
  #drop;
  /** key → { content, value, bytes }, the least recently used first. */
  #entries = new Map();
  #bytes = 0;

  /**
   * @param {number} maxBytes what the entries take at most
   * @param {(value: any) => void} [drop] called with each value let go
   */
  constructor(maxBytes, drop = () => {}) {
    this.#max = maxBytes;
    this.#drop = drop;
  }

  /** The value kept under `key` for `content`, now the most recently used; undefined for any other text. */
  get(key, content) {
    const entry = this.#entries.get(key);
    if (entry?.content !== content) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value kept under `key`, whatever its text, left where it is in the order of use. */
  peek(key) {
    return this.#entries.get(key)?.value;
  }

  /**
   * Keep `value`, made from `content` and taking `bytes`, under `key` (what
   * was kept there is dropped), unless it would take more than a quarter
   * of the cache. Whether it is kept.
   */
  set(key, content, value, bytes) {
    this.delete(key);
    if (bytes > this.#max / 4) return false;
    this.#entries.set(key, { content, value, bytes });
    this.#bytes += bytes;
    this.#evict(key);
    return true;
  }

  /**
   * Count `bytes` for the value kept under `key` from now on (it grew or
   * shrank), unless that is more than a quarter of the cache: then nothing
   * changes. Whether it is counted.
   */
  resize(key, bytes) {
    const entry = this.#entries.get(key);
    if (entry === undefined || bytes > this.#max / 4) return false;
    this.#bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.#evict(key);
    return true;
  }

  /** Drop the least recently used values but `key`'s while the bytes are over the bound. */
  #evict(key) {
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#max) break;
      if (oldest !== key) this.delete(oldest);
    }
  }

  /** Drop what is kept under `key`, if anything. */
  delete(key) {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    this.#drop(entry.value);
  }
}
