// Backup and restore of a whole team (docs/HUB.md, "Backup and restore"):
// `GET /v1/teams/{team}/export` answers the team as NDJSON (the operator's:
// every user memory; an admin's: no other member's user memory), and
// `POST /v1/teams/{team}/import` (operator) writes such an export into a
// team that does not exist yet, on either target (routes/backup.js).
//
// The format, `memdoc-team/1`: a first line `{format, team, exportedAt,
// createdAt}`, then one record a line, in this order and each sorted:
//   {type: "member", member, status?}                                    (status only when "disabled")
//   {type: "key", id, member, role, label, createdAt, lastUsedAt, hash, expiresAt?}  (a live key: its SHA-256, never the secret; expiresAt when it has one)
//   {type: "key", id, member, role, revokedAt}                           (a revoked key, still known by its id)
//   {type: "policy", section, maxAgeDays}                                (in the team's order)
//   {type: "memory", scope, id, since, head}                             (head: the stored head record, as stored)
//   {type: "revision", scope, id, revision, key, value}                  (a kept snapshot, as stored; after its memory)
//   {type: "deleted", scope, id, revision, deletedAt, deletedBy, purgeAfter}
//   {type: "audit", seq, entry}                                          (oldest first)
// Stored records are carried as the strings the store wrote, so that an
// import writes the very bytes the export read, on either target.
//
// An import checks every record before it writes anything: a malformed or
// inconsistent export, or one the hub would not have written, is refused
// whole (422 `import/invalid` with the first bad line's number). Each
// memory's head and snapshots are imported by the store first into a
// scratch host (`importRecords`: the format, the owner, exactly the
// snapshots the head names) and its content must be within the engine's
// hard limit; policies pass the
// policies route's check; audit entries are at most AUDIT_ENTRY_CHARS of
// JSON, at most the hub's audit limit, and none is after the import's time
// (their keys sort by time: an entry from the future would outlive every
// real one). The import then claims the team id marked importing (409
// `team/exists` when the team exists), writes each memory's records (the
// store writes the snapshots before the head that names them), and
// switches the team in with one last write
// (team-record.js): after a crash or a failed write the team does not
// exist, and the same import run again replaces what was left.
//
// What the team's storage holds is read and written namespace by namespace
// as data/layout.js lists them (`readBackedUp`, `writeBackedUp`); the
// memories' records through data/memories.js.
import { MemoryStore, usage } from "memdoc";
import { memoryHost } from "memdoc/adapters/memory";

import { readBackedUp, writeBackedUp } from "./data/layout.js";
import { importStored, storedRecords } from "./data/memories.js";
import { readTeam } from "./data/team.js";
import { MEMBER, MEMORY_ID, ROLES } from "./ids.js";
import { isDateTime } from "./dates.js";
import { checkedPolicies } from "./policies.js";
import { HubProblem } from "./problem.js";

export const FORMAT = "memdoc-team/1";
const KEY_ID = /^[a-f0-9]{16}$/;
const HASH = /^[a-f0-9]{64}$/;
const SEQ = /^[0-9]{17}-[0-9a-f]{4}$/;
/** The longest audit entry an import takes, in characters of JSON (the hub's own are a few hundred). */
export const AUDIT_ENTRY_CHARS = 4096;
/** The longest stored memory record an import takes, in characters (a head holds at most the hard limit's content and its kept audit). */
export const RECORD_CHARS = 1 << 20;
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/** Writes of an import under way at once. */
const BATCH = 64;
const DELETED_FIELDS = "a deleted record names its memory's revision, deletedAt, deletedBy and purgeAfter";

/**
 * The export's lines (without newlines), read from the team's storage:
 * every user memory when `member` is null (the operator's full backup),
 * else only that member's (an admin's export: no other member's user
 * memory, deleted or not).
 */
export async function exportLines(storage, team, { member = null, exportedAt = new Date().toISOString() } = {}) {
  const mine = (scope, id) => scope === "team" || member === null || id === member;
  const lines = [];
  const push = (record) => lines.push(JSON.stringify(record));
  const created = await readTeam(storage);
  push({ format: FORMAT, team, exportedAt, createdAt: created?.createdAt ?? null });
  const held = await readBackedUp(storage);
  const { used, key: keys, revoked } = held;
  const disabled = new Set(held.member.filter((m) => m.status === "disabled").map((m) => m.member));
  for (const member of [...new Set([...keys, ...revoked].map((k) => k.member))].sort(byText)) push({ type: "member", member, ...(disabled.has(member) ? { status: "disabled" } : {}) });
  const keyLines = [
    ...keys.map((k) => ({ type: "key", id: k.id, member: k.member, role: k.role, label: k.label, createdAt: k.createdAt, lastUsedAt: used.get(k.id) ?? null, hash: k.hash, ...(k.expiresAt ? { expiresAt: k.expiresAt } : {}) })),
    ...revoked.map((k) => ({ type: "key", id: k.id, member: k.member, role: k.role, revokedAt: k.revokedAt })),
  ];
  for (const k of keyLines.sort((a, b) => byText(a.id, b.id))) push(k);
  for (const p of held.lifecycle) push({ type: "policy", section: p.section, maxAgeDays: p.maxAgeDays });
  const listed = new Map(held.memory.filter((e) => mine(e.scope, e.id)).map((e) => [`${e.scope}/${e.id}`, e.since]));
  const deleted = held.deleted.filter((d) => mine(d.scope, d.id));
  const refs = [...listed.keys(), ...deleted.map((d) => `${d.scope}/${d.id}`)].sort(byText);
  for (const tag of refs) {
    const [scope, id] = [tag.slice(0, tag.indexOf("/")), tag.slice(tag.indexOf("/") + 1)];
    const stored = await storedRecords(storage, { scope, id });
    // Listed but never written through (a crash between the two): nothing to keep.
    if (!stored) continue;
    push({ type: "memory", scope, id, since: listed.get(tag) ?? null, head: stored.head });
    for (const r of stored.snapshots) push({ type: "revision", scope, id, revision: r.revision, key: r.key, value: r.value });
  }
  for (const d of deleted.sort((a, b) => byText(`${a.scope}/${a.id}`, `${b.scope}/${b.id}`))) {
    push({ type: "deleted", scope: d.scope, id: d.id, revision: d.revision, deletedAt: d.deletedAt, deletedBy: d.deletedBy, purgeAfter: d.purgeAfter });
  }
  for (const a of held.audit) push({ type: "audit", seq: a.seq, entry: a.entry });
  return lines;
}

const isText = (v, max = 1000) => typeof v === "string" && v.length <= max;
const isDate = (v) => typeof v === "string" && v.length <= 40 && isDateTime(v);
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The checked content of an export, or a thrown 422 naming the first bad
 * line. Lines are numbered from 1.
 */
export function parseExport(text, team, { auditMax, now = Date.now() }) {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out = { createdAt: null, members: new Set(), keys: [], policies: [], memories: new Map(), revisions: [], deleted: [], audit: [] };
  const seen = new Set();
  let line = 0;
  const bad = (why) => new HubProblem(422, "import/invalid", `Line ${line} of the export: ${why}; nothing was imported.`, { extra: { line } });
  const once = (what) => {
    if (seen.has(what)) throw bad(`${what} appears twice`);
    seen.add(what);
  };
  for (const raw of lines) {
    line += 1;
    let r;
    try {
      r = JSON.parse(raw);
    } catch {
      throw bad("not a JSON value");
    }
    if (!isObject(r)) throw bad("not a JSON object");
    if (line === 1) {
      if (r.format !== FORMAT) throw bad(`the first line must be {"format":"${FORMAT}",...}`);
      if (r.team !== team) throw bad(`the export is of team ${JSON.stringify(r.team)}: a team is imported under its own id (its keys name it)`);
      if (r.createdAt !== null && !isDate(r.createdAt)) throw bad("createdAt must be a date or null");
      out.createdAt = r.createdAt;
      continue;
    }
    switch (r.type) {
      case "member":
        if (!isText(r.member) || !MEMBER.test(r.member)) throw bad("member must be a member id");
        once(`member ${r.member}`);
        if ("status" in r && r.status !== "disabled") throw bad('a member\'s status is "disabled" or absent');
        out.members.add(r.member);
        if (r.status === "disabled") (out.disabled ??= []).push(r.member);
        break;
      case "key": {
        if (!isText(r.id) || !KEY_ID.test(r.id)) throw bad("a key id is 16 hex digits");
        once(`key ${r.id}`);
        if (!out.members.has(r.member)) throw bad(`key ${r.id} names member ${JSON.stringify(r.member)}, who has no member record before it`);
        if (!ROLES.includes(r.role)) throw bad("role must be reader, writer or admin");
        if ("revokedAt" in r) {
          if (!isDate(r.revokedAt)) throw bad("revokedAt must be a date");
        } else {
          if (!isText(r.hash) || !HASH.test(r.hash)) throw bad("hash must be 64 hex digits");
          if (r.label !== null && !isText(r.label, 200)) throw bad("label must be a string of at most 200 characters or null");
          if (!isDate(r.createdAt) || (r.lastUsedAt !== null && !isDate(r.lastUsedAt))) throw bad("createdAt must be a date, lastUsedAt a date or null");
          if ("expiresAt" in r && !isDate(r.expiresAt)) throw bad("expiresAt must be a date");
        }
        out.keys.push(r);
        break;
      }
      case "policy":
        try {
          checkedPolicies({ policies: [...out.policies, { section: r.section, maxAgeDays: r.maxAgeDays }] });
        } catch (error) {
          throw bad(`not a policy the policies route takes (${error?.message ?? error})`);
        }
        out.policies.push({ section: r.section, maxAgeDays: r.maxAgeDays });
        break;
      case "memory": {
        if (!((r.scope === "team" && isText(r.id) && MEMORY_ID.test(r.id)) || (r.scope === "user" && isText(r.id) && MEMBER.test(r.id)))) throw bad("a memory is scope team or user with a valid id");
        once(`memory ${r.scope}/${r.id}`);
        if (r.since !== null && !isDate(r.since)) throw bad("since must be a date or null");
        if (typeof r.head !== "string" || r.head.length > RECORD_CHARS) throw bad(`head must be a stored record of at most ${RECORD_CHARS} characters`);
        // `lines`: each snapshot's line by its key, for the store's word on it (checkMemories).
        out.memories.set(`${r.scope}/${r.id}`, { scope: r.scope, id: r.id, since: r.since, head: r.head, line, snapshots: [], lines: new Map() });
        break;
      }
      case "revision": {
        const memory = out.memories.get(`${r.scope}/${r.id}`);
        if (!memory) throw bad(`a revision of ${r.scope}/${r.id}, whose memory record is not before it`);
        if (!Number.isSafeInteger(r.revision) || r.revision < 1 || !isText(r.key)) throw bad("a revision names its revision and its key");
        once(`revision ${r.scope}/${r.id} ${r.key}`);
        if (typeof r.value !== "string" || r.value.length > RECORD_CHARS) throw bad(`value must be the stored snapshot, of at most ${RECORD_CHARS} characters`);
        memory.snapshots.push({ revision: r.revision, key: r.key, value: r.value });
        memory.lines.set(r.key, line);
        out.revisions.push(r.key);
        break;
      }
      case "deleted": {
        const memory = out.memories.get(`${r.scope}/${r.id}`);
        if (!memory) throw bad(`${r.scope}/${r.id} is deleted, but its memory record is not before it`);
        once(`deleted ${r.scope}/${r.id}`);
        if (!Number.isSafeInteger(r.revision) || !isDate(r.deletedAt) || !isDate(r.purgeAfter) || !isText(r.deletedBy)) throw bad(DELETED_FIELDS);
        // Its revision is checked against the head's by checkMemories.
        memory.deleted = { revision: r.revision, line };
        out.deleted.push({ scope: r.scope, id: r.id, revision: r.revision, deletedAt: r.deletedAt, deletedBy: r.deletedBy, purgeAfter: r.purgeAfter });
        break;
      }
      case "audit":
        if (!isText(r.seq) || !SEQ.test(r.seq) || !isObject(r.entry)) throw bad("an audit record is {seq, entry}");
        once(`audit ${r.seq}`);
        if (Number(r.seq.slice(0, 17)) > now * 1000) throw bad(`audit entry ${r.seq} is after the import's time`);
        if (JSON.stringify(r.entry).length > AUDIT_ENTRY_CHARS) throw bad(`an audit entry is at most ${AUDIT_ENTRY_CHARS} characters of JSON`);
        if (out.audit.length === auditMax) throw bad(`more audit entries than the ${auditMax} the hub keeps`);
        out.audit.push(r);
        break;
      default:
        throw bad(`unknown type ${JSON.stringify(r.type)}`);
    }
  }
  if (line === 0) {
    line = 1;
    throw bad("the export is empty");
  }
  return out;
}

/**
 * Import every memory of a parsed export as the store would, into a
 * scratch host (a 422 naming the line of the first record it refuses: the
 * snapshot's whose key the store names, else the memory's): its head and
 * exactly the snapshots it names, its content within the hard limit, and a
 * deleted record at the head's revision.
 */
export async function checkMemories(parsed, historyDepth) {
  const store = new MemoryStore(memoryHost(), { historyDepth });
  const bad = (line, why) => new HubProblem(422, "import/invalid", `Line ${line} of the export: ${why}; nothing was imported.`, { extra: { line } });
  try {
    for (const m of parsed.memories.values()) {
      const ref = { scope: m.scope, id: m.id };
      let revision;
      try {
        revision = await store.importRecords(ref, { head: m.head, snapshots: m.snapshots });
      } catch (error) {
        const line = m.lines.get(error?.key) ?? m.line;
        const what = line === m.line ? `the records of ${m.scope}/${m.id} are` : "the snapshot is";
        throw bad(line, `${what} not what the store writes (${error?.code ?? "error"}: ${error?.message ?? error})`);
      }
      if (usage((await store.load(ref)).content).level === "hard") throw bad(m.line, "the content is over the hard limit, which a save refuses");
      if (m.deleted && m.deleted.revision !== revision) throw bad(m.deleted.line, DELETED_FIELDS);
    }
  } finally {
    store.free();
  }
}

/** Run `tasks` (functions), at most BATCH at a time; the first failure is thrown once its batch has settled. */
async function inBatches(tasks) {
  for (let i = 0; i < tasks.length; i += BATCH) {
    const failed = (await Promise.allSettled(tasks.slice(i, i + BATCH).map((task) => task()))).find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  }
}

/** The records of each namespace a backup carries (data/layout.js), as a parsed export holds them. */
const FROM_EXPORT = {
  key: (p) =>
    p.keys
      .filter((k) => !("revokedAt" in k))
      .map((k) => ({ id: k.id, member: k.member, role: k.role, label: k.label, createdAt: k.createdAt, lastUsedAt: null, hash: k.hash, expiresAt: k.expiresAt ?? null })),
  used: (p) => p.keys.filter((k) => !("revokedAt" in k) && k.lastUsedAt !== null).map((k) => [k.id, k.lastUsedAt]),
  revoked: (p) => p.keys.filter((k) => "revokedAt" in k),
  member: (p) => (p.disabled ?? []).map((member) => ({ member, status: "disabled", changedAt: null, changedBy: null })),
  lifecycle: (p) => p.policies,
  memory: (p) => {
    const deleted = new Set(p.deleted.map((d) => `${d.scope}/${d.id}`));
    return [...p.memories].filter(([tag]) => !deleted.has(tag)).map(([, m]) => ({ scope: m.scope, id: m.id, since: m.since ?? new Date().toISOString() }));
  },
  deleted: (p) => p.deleted,
  audit: (p) => p.audit,
};

/** The namespaces an import writes, by name: FROM_EXPORT's for each namespace a backup carries. */
export const importedRecords = (parsed) => Object.fromEntries(Object.entries(FROM_EXPORT).map(([name, of]) => [name, of(parsed)]));

/**
 * Write a checked export into the (just claimed) team's storage. Nothing
 * reads the team before the import switches it in (team-record.js), so the
 * memories go BATCH at a time (the store writes each one's snapshots before
 * its head), and the team's own records in batches of one write each.
 */
export async function writeImport(storage, parsed) {
  await inBatches([...parsed.memories.values()].map((m) => () => importStored(storage, { scope: m.scope, id: m.id }, { head: m.head, snapshots: m.snapshots })));
  await writeBackedUp(storage, importedRecords(parsed));
}
