// A KvHost over IndexedDB, for browsers: exact compare-and-swap, also
// across tabs.
//
// localStorage cannot give that (local-storage.js): Chromium gives each tab
// its own copy and brings other tabs' writes in late. IndexedDB runs
// read-write transactions whose scopes overlap one at a time, across every
// connection of the origin, so `put` reads the current version, compares it
// and writes inside ONE readwrite transaction, and nothing can come between.
// The answer is given only when that transaction has committed.
//
// Each key holds { format: "memdoc-kv/1", version, value }. Versions are a
// counter plus 64 random bits, so a version never repeats, also after a
// delete. A value that is not such a record is reported as an error, never
// read as absent. Over quota the transaction aborts and `put` rejects with the
// browser's QuotaExceededError.
//
// The database is opened on first use (version 1, creating the object store;
// if a database of that name exists without the store, it is upgraded to add
// it). A connection closes itself when another page upgrades the database,
// and the next call opens it again.

const RECORD = "memdoc-kv/1";

function randomPart() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function nextVersion(previous) {
  const n = previous ? Number.parseInt(previous.split(".")[0], 10) || 0 : 0;
  return `${n + 1}.${randomPart()}`;
}

function checked(key, stored) {
  if (stored === undefined) return null;
  if (
    !stored ||
    typeof stored !== "object" ||
    stored.format !== RECORD ||
    typeof stored.version !== "string" ||
    typeof stored.value !== "string"
  ) {
    throw new Error(`IndexedDB entry ${JSON.stringify(key)} is not a memdoc record`);
  }
  return stored;
}

function opened(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB open failed"));
    req.onblocked = () => {
      // Another connection holds the old version open; it closes itself on
      // `versionchange`, after which this request goes on.
    };
  });
}

/**
 * @param {{ name?: string, store?: string }} [options] database name (default
 *   "memdoc") and object store name (default "kv")
 */
export function indexedDbHost(options = {}) {
  const factory = globalThis.indexedDB;
  if (!factory || typeof factory.open !== "function") {
    throw new TypeError("indexedDbHost needs IndexedDB (globalThis.indexedDB)");
  }
  const name = options.name ?? "memdoc";
  const storeName = options.store ?? "kv";
  if (typeof name !== "string" || name === "" || typeof storeName !== "string" || storeName === "") {
    throw new TypeError("indexedDbHost: `name` and `store` must be non-empty strings");
  }

  let opening = null;

  async function openDb() {
    const upgrade = (req) => {
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(storeName)) db.createObjectStore(storeName);
      };
      return req;
    };
    let db = await opened(upgrade(factory.open(name)));
    if (!db.objectStoreNames.contains(storeName)) {
      // The database exists (another store of this origin, or an older
      // layout) without our object store: add it in a new version.
      const version = db.version + 1;
      db.close();
      db = await opened(upgrade(factory.open(name, version)));
    }
    db.onversionchange = () => {
      db.close();
      opening = null;
    };
    db.onclose = () => {
      opening = null;
    };
    return db;
  }

  function database() {
    if (!opening) {
      opening = openDb().catch((error) => {
        opening = null;
        throw error;
      });
    }
    return opening;
  }

  // Run `body(store, answer, fail)` in one transaction; resolve with what it
  // answered once the transaction has committed, reject if it aborts.
  async function transaction(mode, body) {
    const db = await database();
    return new Promise((resolve, reject) => {
      let tx;
      try {
        tx = db.transaction(storeName, mode);
      } catch (error) {
        reject(error);
        return;
      }
      let result;
      let failure = null;
      tx.oncomplete = () => (failure ? reject(failure) : resolve(result));
      tx.onabort = () => reject(failure ?? tx.error ?? new Error("IndexedDB transaction aborted"));
      const fail = (error) => {
        failure = error;
        try {
          tx.abort();
        } catch {
          // already finished: oncomplete/onabort reports `failure`
        }
      };
      try {
        body(tx.objectStore(storeName), (r) => (result = r), fail);
      } catch (error) {
        fail(error);
      }
    });
  }

  return {
    get(key) {
      return transaction("readonly", (store, answer, fail) => {
        const req = store.get(key);
        req.onsuccess = () => {
          try {
            const item = checked(key, req.result);
            answer(item ? { value: item.value, version: item.version } : null);
          } catch (error) {
            fail(error);
          }
        };
      });
    },
    put(key, value, condition) {
      const expected = condition ? condition.expectedVersion : null;
      return transaction("readwrite", (store, answer, fail) => {
        const req = store.get(key);
        req.onsuccess = () => {
          let current;
          try {
            current = checked(key, req.result);
          } catch (error) {
            fail(error);
            return;
          }
          if ((current ? current.version : null) !== expected) {
            answer({ ok: false });
            return;
          }
          const version = nextVersion(current?.version);
          store.put({ format: RECORD, version, value }, key);
          answer({ ok: true, version });
        };
      });
    },
    delete(key) {
      return transaction("readwrite", (store) => {
        store.delete(key);
      });
    },
    /** Close the connection; the next call opens it again. */
    async close() {
      const pending = opening;
      opening = null;
      if (pending) (await pending.catch(() => null))?.close();
    },
  };
}
