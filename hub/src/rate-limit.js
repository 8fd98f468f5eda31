// A token bucket per name (a key, or a client refused for unknown keys), in
// the memory of the process that serves it (on Workers: the team's Durable
// Object, which sees every request of its keys; on Deno: the server
// process). At most MAX_COUNTERS buckets are kept: past that, a bucket that
// has refilled (as good as none) or else the least recently used one is
// forgotten, never all of them at once. A request refused is answered
// with `rateLimited`.
import { BoundedMap } from "./bounded-map.js";
import { HubProblem } from "./problem.js";

export const MAX_COUNTERS = 10_000;

export class RateLimiter {
  /**
   * @param {number} perMinute requests a name may make per minute (also the burst)
   * @param {() => number} [now]
   * @param {number} [max] buckets kept
   */
  constructor(perMinute, now = () => Date.now(), max = MAX_COUNTERS) {
    this.capacity = perMinute;
    this.perMs = perMinute / 60_000;
    this.now = now;
    this.buckets = new BoundedMap(max, (_, b) => b.tokens + (this.now() - b.at) * this.perMs >= this.capacity);
  }

  /** Take one request for `name`; 0 when allowed, otherwise the seconds to wait. */
  take(name) {
    const t = this.now();
    let b = this.buckets.get(name);
    if (!b) {
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

/** The problem of a request refused for `wait` seconds (429, with Retry-After). */
export function rateLimited(wait, what = "requests for this key") {
  return new HubProblem(429, "rate/limited", `Too many ${what}; retry in ${wait} s.`, { headers: { "retry-after": String(wait) } });
}
