// A token bucket per key, in the memory of the process that serves the key
// (on Workers: the team's Durable Object, which sees every request of its
// keys; on Deno: the server process).

export class RateLimiter {
  /** @param {number} perMinute requests a key may make per minute (also the burst) */
  constructor(perMinute, now = () => Date.now()) {
    this.capacity = perMinute;
    this.perMs = perMinute / 60_000;
    this.now = now;
    this.buckets = new Map();
  }

  /** Take one request for `name`; 0 when allowed, otherwise the seconds to wait. */
  take(name) {
    const t = this.now();
    let b = this.buckets.get(name);
    if (!b) {
      if (this.buckets.size > 10_000) this.buckets.clear();
      b = { tokens: this.capacity, at: t };
      this.buckets.set(name, b);
    }
    b.tokens = Math.min(this.capacity, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }
}
