// Requests that present a well-formed key the team does not know (a made-up
// key id, a key of a team that does not exist). Anyone can send them, so
// they are limited per client and per team before anything is stored, the
// key id they carry is never stored nor counted on its own, and a team's
// audit log keeps one summary entry per team and interval ("N refused
// requests with unknown keys from …"), rewritten as the count grows, not
// one entry per request: a flood cannot push real entries out of the log.
// Nothing is written for a team that does not exist. Known keys (a live
// key with a wrong secret, a revoked key) are refused and audited by the
// caller, as the key's member.
import { appendAudit, rewriteAudit } from "./audit.js";
import { BoundedMap } from "./bounded-map.js";
import { RateLimiter } from "./rate-limit.js";
import { teamRecord } from "./team-record.js";

/** One summary entry per team per this many ms. */
export const SUMMARY_INTERVAL_MS = 10 * 60_000;
/** Clients named in a summary; the others are counted. */
export const SUMMARY_CLIENTS = 10;
const CLIENT_CHARS = 64;
const FLUSH_EVERY_MS = 1000;

export class UnknownKeys {
  /** @param {{ ratePerMinute: number, auditMax: number }} config */
  constructor(config, now = () => Date.now()) {
    this.config = config;
    this.now = now;
    this.limiter = new RateLimiter(config.ratePerMinute, now);
    this.summaries = new BoundedMap(1000);
  }

  /**
   * Count one refusal of an unknown key of `team` from `client`: 0 when it
   * may be answered 401 (and recorded), otherwise the seconds to wait (429,
   * nothing stored).
   */
  take(team, client) {
    const wait = this.limiter.take(`client:${client}`);
    if (wait > 0) {
      this.summaryOf(team).limited += 1;
      return wait;
    }
    const teamWait = this.limiter.take(`team:${team}`);
    if (teamWait > 0) this.summaryOf(team).limited += 1;
    return teamWait;
  }

  summaryOf(team) {
    let s = this.summaries.get(team);
    const t = this.now();
    if (!s || t - s.since >= SUMMARY_INTERVAL_MS) {
      s = { key: null, written: t, since: t, count: 0, limited: 0, clients: new Map(), otherClients: 0 };
      this.summaries.set(team, s);
    }
    return s;
  }

  /**
   * Bring the summary's count of 429s up to date (at most once a second; a
   * summary is only written once the team is known to exist).
   */
  async flush(storage, team) {
    const s = this.summaries.get(team);
    if (!s || s.key === null || this.now() - s.written < FLUSH_EVERY_MS) return;
    s.written = this.now();
    await rewriteAudit(storage, await s.key, this.entry(team, s));
  }

  /** Record a refusal that `take` let through, in the summary of an existing team's audit. */
  async record(storage, team, client) {
    if ((await teamRecord(storage)) === undefined) return;
    const s = this.summaryOf(team);
    s.count += 1;
    const name = String(client).slice(0, CLIENT_CHARS);
    if (s.clients.has(name) || s.clients.size < SUMMARY_CLIENTS) s.clients.set(name, (s.clients.get(name) ?? 0) + 1);
    else s.otherClients += 1;
    s.written = this.now();
    if (s.key === null) {
      s.key = appendAudit(storage, this.entry(team, s), this.config.auditMax);
      await s.key;
    } else {
      const key = await s.key;
      await rewriteAudit(storage, key, this.entry(team, s));
    }
  }

  entry(team, s) {
    const clients = [...s.clients].map(([client, count]) => ({ client, count }));
    const from = clients.map((c) => `${c.client} (${c.count})`).join(", ") + (s.otherClients ? ` and ${s.otherClients} more from other clients` : "");
    return {
      at: new Date(s.since).toISOString(),
      member: null,
      keyId: null,
      action: "auth.unknown-key",
      target: `team/${team}`,
      revision: null,
      status: 401,
      count: s.count,
      limited: s.limited,
      until: new Date(this.now()).toISOString(),
      clients,
      otherClients: s.otherClients,
      summary: `${s.count} refused requests with unknown keys from ${from}${s.limited ? `; ${s.limited} more answered 429` : ""}`,
    };
  }
}
