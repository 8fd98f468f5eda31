// The vector cache of hybridRecall (docs/API.md, "Recall by meaning"): each
// item's vector keyed by the embedder's id and a hash of the item's
// normalised text, so that an unchanged item is never embedded twice and a
// change of model embeds again from the text. Any `{ getMany, setMany }`
// serves; by default one in-memory LRU per embedder id, shared by every
// call in the process.

/** Vectors each default cache keeps, per embedder id. */
export const DEFAULT_CACHE_SIZE = 20_000;

/** The default caches, by embedder id. */
const caches = new Map();

/** The default cache of the embedder `id`. */
export function defaultCache(id) {
  let cache = caches.get(id);
  if (cache === undefined) {
    cache = lruCache(DEFAULT_CACHE_SIZE);
    caches.set(id, cache);
  }
  return cache;
}

/**
 * An in-memory cache of at most `size` vectors, the least recently used
 * dropped first.
 */
export function lruCache(size = DEFAULT_CACHE_SIZE) {
  const entries = new Map();
  return {
    async getMany(keys) {
      return keys.map((key) => {
        const vector = entries.get(key);
        if (vector !== undefined) {
          entries.delete(key);
          entries.set(key, vector);
        }
        return vector;
      });
    },
    async setMany(pairs) {
      for (const [key, vector] of pairs) {
        entries.delete(key);
        entries.set(key, vector);
        if (entries.size > size) entries.delete(entries.keys().next().value);
      }
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * The cache key of `text` for the embedder `id`: the id, then 64 bits of
 * FNV-1a over the text's UTF-16 units after normalising (NFC, runs of
 * white space as one space, trimmed), and the normalised length.
 */
export function vectorKey(id, text) {
  const normal = text.normalize("NFC").replace(/\s+/gu, " ").trim();
  // Two 32-bit FNV-1a lanes with different offsets: 64 bits.
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < normal.length; i++) {
    const unit = normal.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (a >>> 15);
  }
  const hex = (n) => (n >>> 0).toString(16).padStart(8, "0");
  return `${id}:${hex(a)}${hex(b)}:${normal.length}`;
}
