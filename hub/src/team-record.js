// The record of a team (data/team.js): a team exists once its
// record is there and whole. Creating a team writes it first; an import
// (backup.js) writes it first too, marked `importing`, then every record of
// the export, then the record without the mark: that one write is the
// switch. Until it, the team does not exist: its keys are refused as
// unknown (caller.js), the operator's routes answer 404, and a crash (or a
// failed write) leaves only an abandoned claim, which the next creation or
// import of the same id clears and replaces. An import running in this
// process is never taken for abandoned: each team is served by one process
// (its Durable Object; the one Deno hub of a KV file).
import { clearTeam, createTeam, readTeam, writeTeam } from "./data/team.js";
import { HubProblem } from "./problem.js";

/** Storages whose team record was read whole (a read per request saved). */
const whole = new WeakSet();
/** The teams importing in this process. */
const importing = new Set();

/**
 * Claim the team id with `record` (put only if absent, or over an abandoned
 * import); false when the team exists or is importing here.
 * @param {import("./data/storage.js").TeamStorage} storage
 * @param {{ team: string }} record
 * @param {boolean} [ours] the caller is the import running here
 */
export async function claimTeam(storage, record, ours = false) {
  whole.delete(storage);
  if (await createTeam(storage, record)) return true;
  const held = await readTeam(storage);
  if (held?.importing === undefined || (importing.has(held.team) && !ours)) return false;
  // An abandoned import: everything it wrote goes, then the claim again.
  await clearTeam(storage);
  return createTeam(storage, record);
}

/**
 * Whether the team exists and is whole: false while (or after a crash
 * during) an import, and for an id without a team.
 */
export async function isWhole(storage) {
  if (whole.has(storage)) return true;
  const record = await readTeam(storage);
  if (record === undefined || record.importing !== undefined) return false;
  whole.add(storage);
  return true;
}

/** The team's record when the team exists and is whole, else undefined. */
export async function teamRecord(storage) {
  const record = await readTeam(storage);
  return record?.importing === undefined ? record : undefined;
}

/** After the team's storage was emptied. */
export function forgetTeam(storage) {
  whole.delete(storage);
}

/**
 * Import a team: claim it marked importing (409 `team/exists` when it
 * exists or another import of it runs here), run `write`, then switch the
 * team in with one write. A failure empties the storage again (and what a
 * crash leaves is replaced by the next claim).
 * @param {import("./data/storage.js").TeamStorage} storage
 * @param {{ team: string, createdAt: string }} record
 * @param {() => Promise<void>} write
 */
export async function importTeam(storage, record, write) {
  const exists = () => new HubProblem(409, "team/exists", "That team exists (or is being imported): an import makes a new team.");
  if (importing.has(record.team)) throw exists();
  importing.add(record.team);
  let claimed = false;
  try {
    claimed = await claimTeam(storage, { ...record, importing: new Date().toISOString() }, true);
    if (!claimed) throw exists();
    await write();
    await writeTeam(storage, record);
  } catch (error) {
    if (claimed) await clearTeam(storage).catch(() => {});
    throw error;
  } finally {
    importing.delete(record.team);
  }
}
