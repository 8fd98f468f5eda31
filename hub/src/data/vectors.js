// The `vectors` namespace: ["vectors", key], one item's vector by the
// package's cache key (`vectorKey`: the embedder's id, a hash of the item's
// normalised text, its length; a "/" of a model id like "@cf/baai/…"
// escaped, keys in team storage holding none), kept as bytes (Durable
// Object storage and Deno KV both keep Uint8Array). The indexer writes them
// (embedding.js); recall reads them (recall-vectors.js).

const vectorEntry = (key) => ["vectors", key.replaceAll("%", "%25").replaceAll("/", "%2F")];

const bytesOf = (vector) => new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
const vectorOf = (bytes) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

/** The package's vector cache (`{ getMany, setMany }`) over a team's storage. */
export function teamVectorCache(storage) {
  return {
    async getMany(keys) {
      // The distinct keys, read together (a memory's items in a few storage reads, not one each).
      const distinct = [...new Set(keys)];
      const values = await storage.getMany(distinct.map(vectorEntry));
      const byKey = new Map(distinct.map((key, i) => [key, values[i]]));
      return keys.map((key) => {
        const bytes = byKey.get(key);
        return bytes instanceof Uint8Array ? vectorOf(bytes) : undefined;
      });
    },
    async setMany(entries) {
      await storage.putMany(entries.map(([key, vector]) => [vectorEntry(key), bytesOf(vector)]));
    },
  };
}
