// The `team` namespace: ["team"], the team's record `{ team, createdAt,
// importing? }` (team-record.js says when a team exists and is whole).
// Clearing the team is this module's too: it empties every namespace.

const RECORD = ["team"];

/** The team's record, undefined when absent. */
export const readTeam = (storage) => storage.get(RECORD);

/** Put the record only if absent; false when present. */
export const createTeam = (storage, record) => storage.create(RECORD, record);

/** Replace the record (an import's switch). */
export const writeTeam = (storage, record) => storage.put(RECORD, record);

/** Delete every record of the team, in every namespace, its memories' too. */
export const clearTeam = (storage) => storage.deleteAll();
