// The `member` namespace: ["member", member], a member's status `{ status,
// changedAt, changedBy }` (active when absent), and the team's queue of
// changes that could leave it without an admin key (a revocation, a member
// disabled), which run one at a time.
import { serially } from "./serial.js";

const memberOf = (member) => ["member", member];

/** A member's status record, undefined when none was set. */
export const readMember = (storage, member) => storage.get(memberOf(member));

/** Set a member's status record. */
export const writeMember = (storage, member, record) => storage.put(memberOf(member), record);

/** Every status record: `[{ member, status, changedAt, changedBy }]`. */
export async function listMembers(storage) {
  return (await storage.list(["member"])).map((e) => ({ member: e.key[1], ...e.value }));
}

/** The entries of `records` (each `{ member, status, changedAt, changedBy }`), for a batch of writes. */
export const memberEntries = (records) => records.map(({ member, ...record }) => [memberOf(member), record]);

/** Run `task` after every key revocation and member change of the team queued before it. */
export const memberChanges = (storage, task) => serially(storage, "members", task);
