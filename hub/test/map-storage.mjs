// An in-memory TeamStorage (data/storage.js) with the same ordering as
// Durable Object storage and Deno KV (keys sorted), for the tests of the
// hub's modules; `host` is the package's in-memory KvHost.
import { memoryHost } from "memdoc/adapters/memory";

export function mapStorage(id = "team") {
  const map = new Map();
  const name = (key) => key.join("/");
  const sorted = (prefix) => [...map.keys()].filter((k) => k.startsWith(`${name(prefix)}/`)).sort();
  return {
    id,
    map,
    host: memoryHost(),
    get: async (key) => map.get(name(key)),
    getMany: async (keys) => keys.map((key) => map.get(name(key))),
    put: async (key, value) => void map.set(name(key), value),
    putMany: async (entries) => entries.forEach(([k, v]) => map.set(name(k), v)),
    delete: async (key) => void map.delete(name(key)),
    deleteMany: async (keys) => keys.forEach((k) => map.delete(name(k))),
    async create(key, value) {
      if (map.has(name(key))) return false;
      map.set(name(key), value);
      return true;
    },
    deleteAll: async () => map.clear(),
    async list(prefix, o = {}) {
      let keys = sorted(prefix);
      if (o.end) keys = keys.filter((k) => k < name(o.end));
      if (o.reverse) keys.reverse();
      if (o.limit !== undefined) keys = keys.slice(0, o.limit);
      return keys.map((k) => ({ key: k.split("/"), value: map.get(k) }));
    },
  };
}
