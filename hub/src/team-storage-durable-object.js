// TeamStorage (team-storage.js) over a Durable Object's transactional storage.
import { durableObjectHost } from "memdoc/adapters/durable-object";

/** A team's storage in its own Durable Object (`ctx.storage`). */
export function durableObjectTeamStorage(storage) {
  const join = (key) => `hub/${key.join("/")}`;
  const split = (name) => name.slice(4).split("/");
  return {
    get: (key) => storage.get(join(key)),
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
