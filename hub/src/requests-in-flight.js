// Short requests before long work (docs/HUB.md, "Limits"), for a hub whose
// requests all share one thread (Deno): the requests in flight are counted,
// and a request that takes a turn in long work (a team recall)
// is counted as long from then on. At each of its turns, long work waits
// while a short request is in flight, at most MAX_WAIT_MS, instead of only
// letting the thread go: a short request's storage steps then each resume
// at once, not after another slice of the long work. Long requests do not
// wait for each other, and the wait's bound keeps long work going behind a
// short request that waits for something slow (or for the long work itself).
import { AsyncLocalStorage } from "node:async_hooks";

/** The longest a turn waits for the short requests in flight. */
export const MAX_WAIT_MS = 10;

export class RequestsInFlight {
  #short = 0;
  #waiting = new Set();
  #requests = new AsyncLocalStorage();

  /** How many requests in flight are short (have taken no turn). */
  get short() {
    return this.#short;
  }

  /**
   * `handle()`'s promise, counted as a short request in flight until it
   * settles or takes a turn.
   * @template T
   * @param {() => Promise<T>} handle
   * @returns {Promise<T>}
   */
  run(handle) {
    const request = { long: false, done: false };
    this.#short += 1;
    const ended = () => {
      request.done = true;
      if (!request.long) this.#ended();
    };
    return this.#requests.run(request, () => Promise.resolve().then(handle).finally(ended));
  }

  /**
   * A turn for long work: marks the current request long, then waits while
   * a short request is in flight (at most MAX_WAIT_MS), else takes `take()`.
   * @param {() => Promise<unknown>} take
   */
  turn(take) {
    return async () => {
      const request = this.#requests.getStore();
      // Work a request left behind when it was answered counts no more.
      if (request !== undefined && !request.long && !request.done) {
        request.long = true;
        this.#ended();
      }
      if (this.#short === 0) return take();
      await new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, MAX_WAIT_MS);
        this.#waiting.add(done);
      });
    };
  }

  #ended() {
    this.#short -= 1;
    if (this.#short > 0) return;
    for (const done of [...this.#waiting]) done();
  }
}
