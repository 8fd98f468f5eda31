// A Map of at most `max` entries that forgets the least recently used one
// to make room: the hub's in-memory tallies (rate counters, last-used times,
// team handles) stay bounded however many names clients make up, and a
// flood of new names pushes out only the oldest entries, never all of them.

export class BoundedMap {
  /**
   * @param {number} max entries kept
   * @param {(key: any, value: any) => boolean} [disposable] entries that may
   *   go first (a counter back at its start), checked from the oldest
   */
  constructor(max, disposable = null) {
    this.max = max;
    this.disposable = disposable;
    this.map = new Map();
  }

  get size() {
    return this.map.size;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key) {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  delete(key) {
    return this.map.delete(key);
  }

  has(key) {
    return this.map.has(key);
  }

  /** Keep `value` as the most recently used, forgetting the oldest past `max`. */
  set(key, value) {
    this.map.delete(key);
    if (this.map.size >= this.max) this.evict();
    this.map.set(key, value);
    return this;
  }

  evict() {
    // Disposable entries among the oldest eighth go first; else the oldest.
    if (this.disposable) {
      let looked = 0;
      for (const [key, value] of this.map) {
        if (looked++ >= Math.max(1, this.max >> 3)) break;
        if (this.disposable(key, value)) {
          this.map.delete(key);
          return;
        }
      }
    }
    this.map.delete(this.map.keys().next().value);
  }
}
