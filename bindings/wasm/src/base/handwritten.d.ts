// Written by hand: what cannot be derived from a Rust type (an error
// class, the host's and the caller's callbacks, the store's class, and the
// prepared recall's class and the functions core.js makes of it). Every
// other declaration is generated from the Rust types (src/js/declarations/).

/**
 * What memdoc throws (or rejects with): a real `Error` with a stable `code`.
 * For `store/host-failed` after the host threw or rejected, `cause` is the
 * host's own error, unchanged.
 */
export interface MemdocError extends Error {
  code: ErrorCode;
  cause?: unknown;
  /** For a store error about one record (`store/corrupt-record`, …), that record's key. */
  key?: string;
}

/**
 * A key-value store with a conditional put, which `MemoryStore` keeps its
 * records in. Adapters ship under `memdoc/adapters/*`.
 */
export interface KvHost {
  /** The value and version at `key`; `null` when the key is absent. */
  get(key: string): Promise<{ value: string; version: string } | null>;
  /** Write only if the key's current version is `expectedVersion` (`null` = absent). */
  put(
    key: string,
    value: string,
    condition: { expectedVersion: string | null },
  ): Promise<{ ok: true; version: string } | { ok: false }>;
  /**
   * Optional: remove `key` (an absent key is not an error). With it, a save
   * removes the snapshots that fell out of the kept history; a rejection is
   * reported in the save's `notice` and does not fail the save. Without it,
   * old snapshots stay in the host.
   */
  delete?(key: string): Promise<void>;
}

/** The callbacks of `StoreOptions` (its other fields are generated). */
export interface StoreOptions {
  /** Shortens a document over the hard limit (typically an LLM call). */
  rewrite?: ((request: RewriteRequest) => Promise<string>) | null;
  /** An ISO timestamp; default `new Date().toISOString()`. */
  now?: (() => string) | null;
}

/**
 * Revisions, history and conflicts for memory documents kept in a `KvHost`.
 * Every method returns a promise; bad arguments reject before any host call.
 */
export class MemoryStore {
  constructor(host: KvHost, options?: StoreOptions | null);
  /** The memory as stored now; revision 0 and `""` when nothing is stored. */
  load(ref: MemoryRef): Promise<Loaded>;
  save(ref: MemoryRef, updated: string, options: StoreSaveOptions): Promise<SaveOutcome>;
  /** Newest first. */
  history(ref: MemoryRef): Promise<AuditEntry[]>;
  /** `null` when the memory never had it or it is older than the kept history. */
  revision(ref: MemoryRef, revision: number): Promise<string | null>;
  /** Save the content of an old revision as a new revision. */
  revert(ref: MemoryRef, revision: number, options: StoreSaveOptions): Promise<SaveOutcome>;
  /** Expire old entries as one new revision; when nothing expires, write nothing. */
  sweep(ref: MemoryRef, options: SweepOptions): Promise<SweepOutcome>;
  /**
   * The memory's records as stored, for a backup: its head and the kept
   * snapshots it names, as opaque strings with their keys; `null` when
   * nothing is stored. Rejects a head the store does not read.
   */
  exportRecords(ref: MemoryRef): Promise<StoredRecords | null>;
  /**
   * Write records `exportRecords` gave as this memory's, the snapshots
   * before the head, each replacing what its key holds; answers the head's
   * revision. Records that are not exactly a head of `ref` and the
   * snapshots it names are refused (the error's `key` is the bad record's)
   * before anything is written.
   */
  importRecords(ref: MemoryRef, records: StoredRecords): Promise<number>;
  /**
   * Delete the memory's head, even one the store refuses, then the snapshots
   * it names; answers whether there was a head.
   */
  purge(ref: MemoryRef): Promise<boolean>;
  /** The revision of the stored head, read without the store's checks; 0 when there is none. */
  storedRevision(ref: MemoryRef): Promise<number>;
  /** The key of the memory's head record in the host (to watch it for changes). */
  headKey(ref: MemoryRef): string;
  /** Release the WebAssembly memory now instead of at garbage collection. */
  free(): void;
}

/**
 * A recall made ready: its options checked, the memory parsed once and its
 * items listed for an embedder; finished once, by words alone or with the
 * embedder's vectors (`hybridRecall` does both halves).
 */
export class PreparedRecall {
  /** Throws the coded errors of `recall`. */
  constructor(text: string, query: string, options?: RecallOptions | null);
  /** Every item's text, in the order `finishWithVectors` takes their vectors. */
  readonly items: string[];
  /** The recall by words alone. */
  finish(): Recall;
  /**
   * The recall by words and meaning: the query's vector, and every item's
   * one after another; `options/invalid-vectors` when they do not fit.
   */
  finishWithVectors(embedder: string, queryVector: Float32Array | number[], itemVectors: Float32Array | number[]): Recall;
  /** Release the WebAssembly memory now instead of finishing. */
  free(): void;
}

/**
 * A memory made ready for recall: parsed, its items listed and their words
 * looked at once, then recalled from query after query, each result equal
 * to `recall`'s (or `recallWithVectors`') of the same text. Kept until
 * `free`.
 */
export class PreparedMemory {
  /** Throws `input/not-a-string`. */
  constructor(text: string);
  /** Every item's text, in the order `recallWithVectors` takes their vectors. */
  readonly items: string[];
  /**
   * `recall(text, query, options)`, with its errors; with `listed`, its
   * `omitted` is only the first `listed` of them (`totals.omitted` counts
   * them all), and the others are not converted.
   */
  recall(query: string, options?: RecallOptions | null, listed?: number): Recall;
  /** `recallWithVectors(text, query, options, embedder, queryVector, itemVectors)`, with its errors; `listed` as `recall`'s. */
  recallWithVectors(query: string, options: RecallOptions | null | undefined, embedder: string, queryVector: Float32Array | number[], itemVectors: Float32Array | number[], listed?: number): Recall;
  /**
   * `recall`, its selected items kept unconverted and read one by one: for
   * a caller that ranks the items of many memories and keeps a few.
   */
  recallScored(query: string, options?: RecallOptions | null, listed?: number): ScoredRecall;
  /** `recallWithVectors`, its selected items kept as `recallScored`'s. */
  recallScoredWithVectors(query: string, options: RecallOptions | null | undefined, embedder: string, queryVector: Float32Array | number[], itemVectors: Float32Array | number[], listed?: number): ScoredRecall;
  /**
   * Keep `itemVectors` (every item's vector by `embedder`, `dimensions`
   * numbers each, one after another) in the memory, checked once, for
   * `recallWithHeldVectors`, instead of those held before;
   * `options/invalid-vectors` when they do not fit the items (and nothing
   * changes).
   */
  holdVectors(embedder: string, itemVectors: Float32Array | number[], dimensions: number): void;
  /** The embedder and dimensions of the vectors held, null before `holdVectors`. */
  readonly heldVectors: { embedder: string; dimensions: number } | null;
  /**
   * `recallWithVectors(query, options, embedder, queryVector, itemVectors, listed)`
   * with the vectors held, neither copied nor checked again: only the
   * query's vector is (`options/invalid-vectors` when it is not
   * `dimensions` finite numbers, or nothing is held).
   */
  recallWithHeldVectors(query: string, options: RecallOptions | null | undefined, queryVector: Float32Array | number[], listed?: number): Recall;
  /** `recallWithHeldVectors`, its selected items kept as `recallScored`'s. */
  recallScoredWithHeldVectors(query: string, options: RecallOptions | null | undefined, queryVector: Float32Array | number[], listed?: number): ScoredRecall;
  /** Release the WebAssembly memory now instead of at garbage collection. */
  free(): void;
}

/** A `Recall` whose selected items are read one by one (`PreparedMemory.recallScored`). */
export type ScoredRecall = Omit<Recall, "selected"> & { selected: SelectedItems };

/**
 * The selected items of a `ScoredRecall`, in `Recall.selected`'s order:
 * each item's score and text without making the item, and the item, equal
 * to `Recall.selected[k]`, when asked for. Iterating gives every item.
 */
export interface SelectedItems extends Iterable<RecalledItem> {
  readonly length: number;
  /** Item `k`'s score. */
  score(k: number): number;
  /** Item `k`'s text. */
  text(k: number): string;
  /** The length of item `k`'s text in UTF-16 units. */
  textLength(k: number): number;
  /** Item `k`'s section title. */
  section(k: number): string;
  /** Item `k`'s date, null when it has none. */
  date(k: number): string | null;
  /** Item `k`, as `Recall.selected[k]`. */
  item(k: number): RecalledItem;
}

/**
 * The part of a memory that best answers a query within a budget.
 *
 * # Errors
 * `input/not-a-string`, `options/invalid-scope`, `options/invalid-budget`,
 * `options/invalid-date`, `options/invalid-weight`, `options/invalid`.
 */
export function recall(text: string, query: string, options?: RecallOptions | null): Recall;

/** The text of every item of a memory, in the order `finishWithVectors` takes their vectors. */
export function recallItems(text: string): string[];

/** `new PreparedRecall(text, query, options).finishWithVectors(embedder, queryVector, itemVectors)`. */
export function recallWithVectors(text: string, query: string, options: RecallOptions | null | undefined, embedder: string, queryVector: Float32Array | number[], itemVectors: Float32Array | number[]): Recall;
