// TeamStorage (data/storage.js) over Deno KV.
import { denoKvHost } from "memdoc/adapters/deno-kv";

/** A team's storage in Deno KV, under ["hub", team]. */
export function denoKvTeamStorage(kv, team) {
  const base = ["hub", team];
  const full = (key) => [...base, ...key];
  return {
    id: team,
    get: async (key) => (await kv.get(full(key))).value ?? undefined,
    async getMany(keys) {
      // Deno KV reads at most 10 keys at once: the reads of 10 each, together.
      const parts = [];
      for (let i = 0; i < keys.length; i += 10) parts.push(kv.getMany(keys.slice(i, i + 10).map(full)));
      return (await Promise.all(parts)).flatMap((entries) => entries.map((e) => e.value ?? undefined));
    },
    put: async (key, value) => {
      await kv.set(full(key), value);
    },
    async putMany(entries) {
      for (let i = 0; i < entries.length; i += 100) {
        const op = kv.atomic();
        for (const [k, v] of entries.slice(i, i + 100)) op.set(full(k), v);
        if (!(await op.commit()).ok) throw new Error("Deno KV refused a batch of writes");
      }
    },
    delete: (key) => kv.delete(full(key)),
    async deleteMany(keys) {
      for (let i = 0; i < keys.length; i += 100) {
        const op = kv.atomic();
        for (const k of keys.slice(i, i + 100)) op.delete(full(k));
        await op.commit();
      }
    },
    create: async (key, value) => (await kv.atomic().check({ key: full(key), versionstamp: null }).set(full(key), value).commit()).ok,
    async list(prefix, o = {}) {
      const selector = o.end ? { prefix: full(prefix), end: full(o.end) } : { prefix: full(prefix) };
      const out = [];
      for await (const e of kv.list(selector, { reverse: o.reverse, limit: o.limit })) out.push({ key: e.key.slice(base.length), value: e.value });
      return out;
    },
    async deleteAll() {
      for (;;) {
        const keys = [];
        for await (const e of kv.list({ prefix: base }, { limit: 500 })) keys.push(e.key);
        if (keys.length === 0) return;
        for (let i = 0; i < keys.length; i += 100) {
          const op = kv.atomic();
          for (const k of keys.slice(i, i + 100)) op.delete(k);
          await op.commit();
        }
      }
    },
    host: denoKvHost(kv, { prefix: [...base, "mem"] }),
    /** The Deno KV key of a record of the memories' host (of a memory's head, the store's `headKey`, to kv.watch it for events). */
    hostKey: (key) => [...base, "mem", key],
  };
}
