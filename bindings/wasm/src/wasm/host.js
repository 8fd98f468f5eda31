// The JavaScript half of host.rs beside this file: the store's `timeoutMs`
// (`JsHost::call`), a host's answer raced against a timer, which is cleared
// as soon as the race is decided, so that a finished call leaves no timer
// keeping a Node process alive.

/** What a call that ran out of time rejects with: an object nobody else holds. */
const EXPIRED = Object.freeze({});

/** `answer`, or a rejection with `EXPIRED` after `ms` milliseconds. */
export function withDeadline(answer, ms) {
  if (typeof setTimeout !== "function") {
    return Promise.reject(new TypeError("timeoutMs needs setTimeout, which this runtime does not have"));
  }
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(reject, ms, EXPIRED);
  });
  return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
}

/** Whether `reason` is the rejection of a call that ran out of time. */
export function timedOut(reason) {
  return reason === EXPIRED;
}
