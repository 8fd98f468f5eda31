// Work of one team that must run one at a time in this process: a memory's
// save, delete, restore and purge; the changes that could leave a team
// without an admin; the team's hourly stats record. Each
// queue is named by the team's storage id (TeamStorage.id: the team's id on
// Deno, the Durable Object's id on Workers) and what it orders, never by a
// storage handle a cache may replace, so a queue holds however many handles
// of one team exist; and it is kept only while work is running or queued.

const tails = new Map();

/**
 * Run `task` once every task queued before it under the same team and
 * `what` has settled; its result (or error) is the answer.
 * @template T
 * @param {{ id: string }} storage the team's
 * @param {string} what
 * @param {() => T | Promise<T>} task
 * @returns {Promise<T>}
 */
export function serially(storage, what, task) {
  const name = `${storage.id}\u0000${what}`;
  const next = (tails.get(name) ?? Promise.resolve()).then(task);
  const settled = next.then(
    () => {},
    () => {},
  );
  tails.set(name, settled);
  settled.then(() => tails.get(name) === settled && tails.delete(name));
  return next;
}
