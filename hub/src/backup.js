// Backup and restore of a whole team (docs/HUB.md, "Backup and restore"):
// `GET /v1/teams/{team}/export` (admin) answers the team as NDJSON, and
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
// An import checks every line before it writes anything: a malformed or
// inconsistent export is refused whole (422 `import/invalid` with the first
// bad line's number). It then claims the team id (409 `team/exists` when the
// team exists, whoever made it first) and writes the snapshots before the
// heads that name them.
import { expire } from "memdoc";

import { MEMBER, MEMORY_ID, ROLES } from "./ids.js";
import { readPolicies } from "./lifecycle.js";
import { HubProblem } from "./problem.js";

export const FORMAT = "memdoc-team/1";
const KEY_ID = /^[a-f0-9]{16}$/;
const HASH = /^[a-f0-9]{64}$/;
const SEQ = /^[0-9]{17}-[0-9a-f]{4}$/;
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const headKey = (scope, id) => `memdoc/${scope}/${id}`;

/** The export's lines (without newlines), read from the team's storage. */
export async function exportLines(storage, team, exportedAt = new Date().toISOString()) {
  const lines = [];
  const push = (record) => lines.push(JSON.stringify(record));
  const created = await storage.get(["team"]);
  push({ format: FORMAT, team, exportedAt, createdAt: created?.createdAt ?? null });
  const used = new Map((await storage.list(["used"])).map((e) => [e.key[1], e.value]));
  const keys = (await storage.list(["key"])).map((e) => e.value);
  const revoked = (await storage.list(["revoked"])).map((e) => ({ id: e.key[1], ...e.value }));
  const disabled = new Set((await storage.list(["member"])).filter((e) => e.value.status === "disabled").map((e) => e.key[1]));
  for (const member of [...new Set([...keys, ...revoked].map((k) => k.member))].sort(byText)) push({ type: "member", member, ...(disabled.has(member) ? { status: "disabled" } : {}) });
  const keyLines = [
    ...keys.map((k) => ({ type: "key", id: k.id, member: k.member, role: k.role, label: k.label, createdAt: k.createdAt, lastUsedAt: used.get(k.id) ?? null, hash: k.hash, ...(k.expiresAt ? { expiresAt: k.expiresAt } : {}) })),
    ...revoked.map((k) => ({ type: "key", id: k.id, member: k.member, role: k.role, revokedAt: k.revokedAt })),
  ];
  for (const k of keyLines.sort((a, b) => byText(a.id, b.id))) push(k);
  for (const p of await readPolicies(storage)) push({ type: "policy", section: p.section, maxAgeDays: p.maxAgeDays });
  const listed = new Map((await storage.list(["memory"])).map((e) => [`${e.key[1]}/${e.key[2]}`, e.value.since]));
  const deleted = (await storage.list(["deleted"])).map((e) => e.value);
  const refs = [...listed.keys(), ...deleted.map((d) => `${d.scope}/${d.id}`)].sort(byText);
  for (const tag of refs) {
    const [scope, id] = [tag.slice(0, tag.indexOf("/")), tag.slice(tag.indexOf("/") + 1)];
    const head = await storage.host.get(headKey(scope, id));
    // Listed but never written through (a crash between the two): nothing to keep.
    if (!head) continue;
    push({ type: "memory", scope, id, since: listed.get(tag) ?? null, head: head.value });
    for (const s of JSON.parse(head.value).snapshots) {
      const snapshot = await storage.host.get(s.key);
      if (snapshot) push({ type: "revision", scope, id, revision: s.revision, key: s.key, value: snapshot.value });
    }
  }
  for (const d of deleted.sort((a, b) => byText(`${a.scope}/${a.id}`, `${b.scope}/${b.id}`))) {
    push({ type: "deleted", scope: d.scope, id: d.id, revision: d.revision, deletedAt: d.deletedAt, deletedBy: d.deletedBy, purgeAfter: d.purgeAfter });
  }
  for (const e of await storage.list(["audit"])) push({ type: "audit", seq: e.key[1], entry: e.value });
  return lines;
}

const isText = (v, max = 1000) => typeof v === "string" && v.length <= max;
const isDate = (v) => typeof v === "string" && v.length <= 40 && !Number.isNaN(Date.parse(v));
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The checked content of an export, or a thrown 422 naming the first bad
 * line. Lines are numbered from 1.
 */
export function parseExport(text, team) {
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
          expire("", { today: "2000-01-01", policies: [{ section: r.section, maxAgeDays: r.maxAgeDays }] });
        } catch (error) {
          throw bad(`not a policy (${error?.message ?? error})`);
        }
        out.policies.push({ section: r.section, maxAgeDays: r.maxAgeDays });
        break;
      case "memory": {
        if (!((r.scope === "team" && isText(r.id) && MEMORY_ID.test(r.id)) || (r.scope === "user" && isText(r.id) && MEMBER.test(r.id)))) throw bad("a memory is scope team or user with a valid id");
        once(`memory ${r.scope}/${r.id}`);
        if (r.since !== null && !isDate(r.since)) throw bad("since must be a date or null");
        let head;
        try {
          head = typeof r.head === "string" ? JSON.parse(r.head) : null;
        } catch {
          head = null;
        }
        const prefix = `${headKey(r.scope, r.id)}/rev/`;
        if (!isObject(head) || head.scope !== r.scope || head.id !== r.id || !Number.isInteger(head.revision) || head.revision < 1 || !Array.isArray(head.snapshots)) {
          throw bad(`head must be the stored head record of ${r.scope}/${r.id}`);
        }
        if (!head.snapshots.every((s) => isObject(s) && Number.isInteger(s.revision) && isText(s.key) && s.key.startsWith(prefix))) throw bad("a snapshot of the head lies outside its memory");
        out.memories.set(`${r.scope}/${r.id}`, { scope: r.scope, id: r.id, since: r.since, head: r.head, revision: head.revision, line, missing: new Map(head.snapshots.map((s) => [s.key, s.revision])) });
        break;
      }
      case "revision": {
        const memory = out.memories.get(`${r.scope}/${r.id}`);
        if (!memory) throw bad(`a revision of ${r.scope}/${r.id}, whose memory record is not before it`);
        if (!isText(r.key) || memory.missing.get(r.key) !== r.revision) throw bad(`revision ${r.revision} is not a kept snapshot its memory's head names`);
        if (typeof r.value !== "string") throw bad("value must be the stored snapshot");
        memory.missing.delete(r.key);
        out.revisions.push({ key: r.key, value: r.value });
        break;
      }
      case "deleted": {
        const memory = out.memories.get(`${r.scope}/${r.id}`);
        if (!memory) throw bad(`${r.scope}/${r.id} is deleted, but its memory record is not before it`);
        once(`deleted ${r.scope}/${r.id}`);
        if (r.revision !== memory.revision || !isDate(r.deletedAt) || !isDate(r.purgeAfter) || !isText(r.deletedBy)) throw bad("a deleted record names its memory's revision, deletedAt, deletedBy and purgeAfter");
        out.deleted.push({ scope: r.scope, id: r.id, revision: r.revision, deletedAt: r.deletedAt, deletedBy: r.deletedBy, purgeAfter: r.purgeAfter });
        break;
      }
      case "audit":
        if (!isText(r.seq) || !SEQ.test(r.seq) || !isObject(r.entry)) throw bad("an audit record is {seq, entry}");
        once(`audit ${r.seq}`);
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
  for (const memory of out.memories.values()) {
    if (memory.missing.size > 0) {
      line = memory.line;
      throw bad(`${memory.scope}/${memory.id}: revision ${[...memory.missing.values()][0]} its head names is missing`);
    }
  }
  return out;
}

/** Write a checked export into the (just claimed) team's storage. */
export async function writeImport(storage, parsed) {
  for (const k of parsed.keys) {
    if ("revokedAt" in k) {
      await storage.put(["revoked", k.id], { member: k.member, role: k.role, revokedAt: k.revokedAt });
      continue;
    }
    await storage.put(["key", k.id], { id: k.id, member: k.member, role: k.role, label: k.label, createdAt: k.createdAt, lastUsedAt: null, hash: k.hash, expiresAt: k.expiresAt ?? null });
    if (k.lastUsedAt !== null) await storage.put(["used", k.id], k.lastUsedAt);
  }
  for (const member of parsed.disabled ?? []) await storage.put(["member", member], { status: "disabled", changedAt: null, changedBy: null });
  if (parsed.policies.length > 0) await storage.put(["lifecycle", "policies"], parsed.policies);
  // Snapshots first: a head is written only when what it names is there.
  for (const r of parsed.revisions) await storage.host.put(r.key, r.value, { expectedVersion: null });
  const deleted = new Set(parsed.deleted.map((d) => `${d.scope}/${d.id}`));
  for (const [tag, memory] of parsed.memories) {
    await storage.host.put(headKey(memory.scope, memory.id), memory.head, { expectedVersion: null });
    if (!deleted.has(tag)) await storage.put(["memory", memory.scope, memory.id], { since: memory.since ?? new Date().toISOString() });
  }
  for (const d of parsed.deleted) await storage.put(["deleted", d.scope, d.id], d);
  for (const a of parsed.audit) await storage.put(["audit", a.seq], a.entry);
}
