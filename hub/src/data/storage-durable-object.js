// TeamStorage (data/storage.js) over a Durable Object's transactional storage.
import { durableObjectHost } from "memdoc/adapters/durable-object";

/** A team's storage in its own Durable Object (`ctx.storage`, `ctx.id`). */
export function durableObjectTeamStorage(storage, id) {
  const join = (key) => `hub/${key.join("/")}`;
  const split = (name) => name.slice(4).split("/");
  return {
    // Objects of one class may share an isolate: each team's queues are its object's.
    id: id.toString(),
    get: (key) => storage.get(join(key)),
    async getMany(keys) {
      // A Durable Object reads at most 128 keys at once.
      const out = [];
      for (let i = 0; i < keys.length; i += 128) {
        const names = keys.slice(i, i + 128).map(join);
        const found = await storage.get(names);
        out.push(...names.map((name) => found.get(name)));
      }
      return out;
    },
    put: (key, value) => storage.put(join(key), value),
    async putMany(entries) {
      for (let i = 0; i < entries.length; i += 128) await storage.put(Object.fromEntries(entries.slice(i, i + 128).map(([k, v]) => [join(k), v])));
    },
    delete: (key) => storage.delete(join(key)).then(() => {}),
    async deleteMany(keys) {
      for (let i = 0; i < keys.length; i += 128) await storage.delete(keys.slice(i, i + 128).map(join));
    },
    create: (key, value) =>
      storage.transaction(async (txn) => {
        if ((await txn.get(join(key))) !== undefined) return false;
        await txn.put(join(key), value);
        return true;
      }),
    async list(prefix, o = {}) {
      const map = await storage.list({ prefix: `${join(prefix)}/`, reverse: o.reverse, limit: o.limit, end: o.end ? join(o.end) : undefined });
      return Array.from(map, ([name, value]) => ({ key: split(name), value }));
    },
    // The object holds one team: all of its storage is the team's.
    deleteAll: () => storage.deleteAll(),
    host: durableObjectHost(storage),
  };
}
