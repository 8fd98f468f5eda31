// A team's storage, under the data layer's modules (layout.js lists its
// namespaces; each module builds its own keys, and nothing outside
// hub/src/data calls these methods). Keys are arrays of strings without "/",
// the first one the namespace. Implementations: storage-durable-object.js,
// storage-deno-kv.js.

/**
 * @typedef {object} TeamStorage
 * @property {string} id  the team's own name in this process, whatever handle
 *   of it a cache holds (the queues of serial.js are keyed by it)
 * @property {(key: string[]) => Promise<any>} get  undefined when absent
 * @property {(keys: string[][]) => Promise<any[]>} getMany  each as `get`, in as few reads as the storage allows
 * @property {(key: string[], value: any) => Promise<void>} put
 * @property {(entries: [string[], any][]) => Promise<void>} putMany  puts in batches (each batch one write)
 * @property {(key: string[]) => Promise<void>} delete
 * @property {(keys: string[][]) => Promise<void>} deleteMany
 * @property {(key: string[], value: any) => Promise<boolean>} create  put only if absent; false when present
 * @property {(prefix: string[], o?: { reverse?: boolean, limit?: number, end?: string[] }) => Promise<{ key: string[], value: any }[]>} list
 * @property {() => Promise<void>} deleteAll  every key of the team, its memories' too
 * @property {import("memdoc").KvHost} host  the memories' key-value host
 */
export {};
