// Type-checked with `tsc --noEmit -p test-js` (never run): every exported
// function and type of the package, used the way a TypeScript user would.
import init, {
  MemoryStore,
  compact,
  expire,
  merge,
  recall,
  recallItems,
  PreparedMemory,
  PreparedRecall,
  recallWithVectors,
  hybridRecall,
  lruCache,
  diagnosticCodes,
  errorCodes,
  init as namedInit,
  initSync,
  injectionBlock,
  normalizeHeading,
  parse,
  planSave,
  render,
  usage,
  validate,
  version,
  writingRules,
  type Diagnostic,
  type Embedder,
  type HybridRecall,
  type ScoredRecall,
  type SelectedItems,
  type VectorCache,
  type DiagnosticCode,
  type Entry,
  type ErrorCode,
  type InjectOptions,
  type Level,
  type Limits,
  type Line,
  type MemdocError,
  type StoredRecords,
  type StoredSnapshot,
  type MemoryDocument,
  type Position,
  type Range,
  type RawLine,
  type Report,
  type SaveOptions,
  type SavePlan,
  type SaveStatus,
  type Scope,
  type Section,
  type Severity,
  type Usage,
  type ValidateOptions,
  type ArchivedEntry,
  type AuditEntry,
  type CompactOptions,
  type Compaction,
  type ConflictSide,
  type KvHost,
  type Loaded,
  type MemoryRef,
  type MergeConflict,
  type MergeConflictKind,
  type MergeDroppedLine,
  type MergeResult,
  type MergeSide,
  type MergedSection,
  type Priority,
  type RemovalReason,
  type RemovedEntry,
  type RewriteRequest,
  type SaveOutcome,
  type StoreOptions,
  type StoreSaveOptions,
  type StoreStatus,
  type ExpireOptions,
  type Expiry,
  type ExpiryPolicy,
  type OmitReason,
  type OmittedItem,
  type Recall,
  type RecallOptions,
  type RecallTotals,
  type RecallWeights,
  type RecallWhy,
  type RecalledItem,
  type SweepOptions,
  type SweepOutcome,
  type SweepStatus,
} from "memdoc";
import { memoryHost, type MemoryHost } from "memdoc/adapters/memory";
import { workersAiEmbedder, type WorkersAiBinding } from "memdoc/embedders/workers-ai";
import { openAiEmbedder } from "memdoc/embedders/openai";
import { localStorageHost, type LocalStorageHostOptions } from "memdoc/adapters/local-storage";
import { workersKvHost, type KvNamespaceLike } from "memdoc/adapters/workers-kv";
import { durableObjectHost, type DurableObjectStorageLike } from "memdoc/adapters/durable-object";
import { denoKvHost, type DenoKvHostOptions } from "memdoc/adapters/deno-kv";
import { indexedDbHost, type IndexedDbHost, type IndexedDbHostOptions } from "memdoc/adapters/indexeddb";
import { miniLmEmbedder, type MiniLmEmbedder, type MiniLmOptions } from "memdoc/embedders/minilm";

const ready: Promise<void> = init();
const again: Promise<void> = namedInit();
void ready;
void again;
const sync: typeof initSync = initSync;
void sync;

const scope: Scope = "team";
const limits: Limits = { soft: 10, hard: 20 };
const validateOptions: ValidateOptions = { scope, previous: null, limits: { hard: 30 }, forbiddenTeamHeadings: ["Secrets"] };
const saveOptions: SaveOptions = { ...validateOptions, allowErase: false, limits };
const injectOptions: InjectOptions = { scope: "user", userName: "Alex", limits: { soft: 5 } };

const doc: MemoryDocument = parse("## A\n- 2025-01-01: x");
const section: Section = doc.sections[0];
const preamble: RawLine[] = doc.preamble;
void preamble;
for (const line of section.lines as Line[]) {
  if (line.kind === "entry") {
    const entry: Entry = line;
    const marker: "fact" | "pref" | "instr" | null = entry.legacyMarker;
    const date: string = entry.date;
    void marker;
    void date;
  } else {
    const raw: RawLine = line;
    void raw.text;
  }
}
const range: Range = section.range;
const position: Position = range.start;
const offsets: number = position.line + position.column + position.offset;
void offsets;

const canonical: string = render("## A");
const key: string = normalizeHeading("## A");
const used: Usage = usage(canonical, { soft: 1 });
const level: Level = used.level;
const report: Report = validate(key, validateOptions);
const first: Diagnostic | undefined = report.diagnostics[0];
const code: DiagnosticCode | undefined = first?.code;
const severity: Severity | undefined = first?.severity;
const where: Range | null | undefined = first?.range;
const plan: SavePlan = planSave(canonical, saveOptions);
const status: SaveStatus = plan.status;
const dropped: string[] = plan.dropped;
const block: string = injectionBlock(plan.content, injectOptions);
const codes: DiagnosticCode[] = diagnosticCodes();
const errors: ErrorCode[] = errorCodes();
const v: string = version();
const rules: string = writingRules({ scope: "team", limits: { hard: 30000 } });
void [level, code, severity, where, status, dropped, block, codes, errors, v, rules];

try {
  validate("## A", { scope: "team" });
} catch (e) {
  const error = e as MemdocError;
  const c: ErrorCode = error.code;
  const m: string = error.message;
  void [c, m];
}

// @ts-expect-error: an unknown scope is not a Scope
const badScope: Scope = "everyone";
// @ts-expect-error: text must be a string
parse(42);
// @ts-expect-error: no such diagnostic code
const badCode: DiagnosticCode = "size/too-big";
void [badScope, badCode];

// ---- merge and compact ---------------------------------------------------

const merged: MergeResult = merge("## A", "## A\n- 2025-01-01: x", "## A");
const clean: boolean = merged.clean;
const conflict: MergeConflict | undefined = merged.conflicts[0];
const kind: MergeConflictKind | undefined = conflict?.kind;
const side: ConflictSide | null | undefined = conflict?.ours;
const sideLines: string[] | undefined = side?.lines;
const mergeDropped: MergeDroppedLine | undefined = merged.dropped[0];
const whichSide: MergeSide | undefined = mergeDropped?.side;
void [clean, kind, sideLines, whichSide];

const compactOptions: CompactOptions = { scope: "team", target: 100, today: "2025-01-01" };
const compaction: Compaction = compact("## A", compactOptions);
const fits: boolean = compaction.fits;
const mergedSection: MergedSection | undefined = compaction.merged[0];
const fromRange: Range | undefined = mergedSection?.fromRange;
const removed: RemovedEntry | undefined = compaction.removed[0];
const reason: RemovalReason | undefined = removed?.reason;
const priority: Priority | undefined = removed?.priority;
const duplicateOf: Entry | null | undefined = removed?.duplicateOf;
const compactDropped: RawLine[] = compaction.dropped;
void [fits, fromRange, reason, priority, duplicateOf, compactDropped, compaction.before + compaction.after + compaction.target];

// ---- the store ------------------------------------------------------------

const custom: KvHost = {
  async get(_key: string) {
    return null;
  },
  async put(_key: string, _value: string, condition: { expectedVersion: string | null }) {
    return condition.expectedVersion === null ? { ok: true as const, version: "1" } : { ok: false as const };
  },
};
const memory: MemoryHost = memoryHost();
const keys: string[] = memory.keys();
const lsOptions: LocalStorageHostOptions = { locks: null, lockPrefix: "app:" };
const hosts: KvHost[] = [
  custom,
  memory,
  localStorageHost(undefined, lsOptions),
  workersKvHost({} as KvNamespaceLike),
  durableObjectHost({} as DurableObjectStorageLike),
  denoKvHost({}, { prefix: ["app"] } satisfies DenoKvHostOptions),
  indexedDbHost({ name: "app", store: "kv" } satisfies IndexedDbHostOptions),
];
const idb: IndexedDbHost = indexedDbHost();
const deletes: Promise<void>[] = [memory.delete("k"), idb.delete("k"), localStorageHost().delete("k"), idb.close()];
const withDelete: KvHost = { ...custom, delete: async (_key: string) => {} };
void [keys, hosts, deletes, withDelete];

const storeOptions: StoreOptions = {
  limits: { hard: 30000 },
  forbiddenTeamHeadings: ["Secrets"],
  keyPrefix: "app",
  historyDepth: 5,
  compactOverLimit: true,
  rewrite: async (request: RewriteRequest) => request.content.slice(0, request.target) + request.prompt.slice(0, 0),
  now: () => new Date().toISOString(),
};
const store = new MemoryStore(custom, storeOptions);
const ref: MemoryRef = { scope: "user", id: "alice" };
const saveOpts: StoreSaveOptions = { baseRevision: 0, actor: "agent", allowErase: false, onConflict: "merge" };

async function useStore(): Promise<void> {
  const loaded: Loaded = await store.load(ref);
  const updatedAt: string | null = loaded.updatedAt;
  const outcome: SaveOutcome = await store.save(ref, loaded.content, saveOpts);
  const storeStatus: StoreStatus = outcome.status;
  const notice: string | null = outcome.notice;
  const history: AuditEntry[] = await store.history(ref);
  const archived: ArchivedEntry[] = history[0]?.archived ?? [];
  const codesOfSave: string[] = history[0]?.codes ?? [];
  const old: string | null = await store.revision(ref, 1);
  const reverted: SaveOutcome = await store.revert(ref, 1, { baseRevision: outcome.revision });
  void [updatedAt, storeStatus, notice, archived, codesOfSave, old, reverted, loaded.usage.chars];
  store.free();
}
void useStore;

try {
  new MemoryStore(custom, { historyDepth: 0 });
} catch (e) {
  const error = e as MemdocError;
  const c: ErrorCode = error.code;
  const cause: unknown = error.cause;
  void [c, cause];
}

// @ts-expect-error: the store needs a host
new MemoryStore();
// @ts-expect-error: save options need a base revision
void store.save(ref, "", { actor: "x" });
// @ts-expect-error: no such status
const badStatus: StoreStatus = "merged";
// @ts-expect-error: a store error code is an ErrorCode, an unknown one is not
const badError: ErrorCode = "store/boom";
void [badStatus, badError];


// ---- recall, expire and sweep (docs/API.md) -----------------------------

const recallWeights: RecallWeights = { relevance: 1, recency: 0.5 };
const recallOptions: RecallOptions = {
  scope: "team",
  budget: 1200,
  today: "2025-06-01",
  pinned: ["Decisions"],
  weights: recallWeights,
  halfLifeDays: 30,
};
const recalled: Recall = recall("## A", "query", recallOptions);
const recalledDefault: Recall = recall("## A", "");
const firstSelected: RecalledItem | undefined = recalled.selected[0];
const firstOmitted: OmittedItem | undefined = recalled.omitted[0];
const omitReason: OmitReason | undefined = firstOmitted?.reason;
const recallWhy: RecallWhy | undefined = firstSelected?.why;
const recallTotals: RecallTotals = recalled.totals;
const recallDate: string | null | undefined = firstSelected?.date;
const relevance: number | undefined = recallWhy?.relevance;
const cosine: number | undefined = recallWhy?.semantic?.raw;
const age: number | null | undefined = recallWhy?.recency.raw;
const pinnedItem: boolean | undefined = recallWhy?.pinned;
void [cosine, age, pinnedItem, recallWhy?.lexical.normalized, recallWhy?.priority.raw];
const itemTexts: string[] = recallItems("## A\n- 2025-01-01: x");
const byVectors: Recall = recallWithVectors("## A\n- 2025-01-01: x", "x", {}, "model", new Float32Array(2), new Float32Array(2));
const prepared = new PreparedRecall("## A\n- 2025-01-01: x", "x", { budget: 400 });
const preparedItems: string[] = prepared.items;
const finished: Recall = prepared.finishWithVectors("model", new Float32Array(2), new Float32Array(2 * preparedItems.length));
const byWords: Recall = new PreparedRecall("## A", "x").finish();
new PreparedRecall("## A", "x", null).free();
const preparedMemory = new PreparedMemory("## A\n- 2025-01-01: x");
const memoryItems: string[] = preparedMemory.items;
const fromMemory: Recall = preparedMemory.recall("x", { budget: 400 });
const fromMemoryByVectors: Recall = preparedMemory.recallWithVectors("x", null, "model", new Float32Array(2), [0, 1]);
const scored: ScoredRecall = preparedMemory.recallScored("x", { budget: 400 }, 3);
const scoredByVectors: ScoredRecall = preparedMemory.recallScoredWithVectors("x", null, "model", new Float32Array(2), [0, 1]);
const scoredItems: SelectedItems = scored.selected;
const firstScored: RecalledItem = scoredItems.item(0);
const scoredNumbers: number[] = [scoredItems.length, scoredItems.score(0), scoredItems.textLength(0), scored.totals.selected];
const scoredText: string = scoredItems.text(0) + scoredItems.section(0) + (scoredItems.date(0) ?? "");
const everyScored: RecalledItem[] = [...scoredByVectors.selected];
// @ts-expect-error a scored recall's selected items are not an array
const notAnArray: RecalledItem[] = scored.selected;
preparedMemory.holdVectors("model", new Float32Array(2), 2);
const held: { embedder: string; dimensions: number } | null = preparedMemory.heldVectors;
const fromHeld: Recall = preparedMemory.recallWithHeldVectors("x", null, [0, 1], 3);
const scoredFromHeld: ScoredRecall = preparedMemory.recallScoredWithHeldVectors("x", { budget: 400 }, new Float32Array(2));
void [memoryItems, fromMemory, fromMemoryByVectors, firstScored, scoredNumbers, scoredText, everyScored, notAnArray, held, fromHeld, scoredFromHeld];
preparedMemory.free();
// @ts-expect-error a prepared memory is made of a text alone
new PreparedMemory("## A", "x");
void [finished, byWords];
const embedder: Embedder = {
  id: "model",
  dimensions: 2,
  embed: async (texts: string[], kind: "query" | "document") => texts.map(() => new Float32Array(kind === "query" ? 2 : 2)),
};
const vectorCache: VectorCache = lruCache(100);
const hybrid: Promise<HybridRecall> = hybridRecall("## A", "query", { embedder, cache: vectorCache, budget: 400, today: "2025-06-01", pinned: [], weights: { relevance: 1 } });
void hybrid.then((h) => [h.semantic.model, h.semantic.degraded, h.selected]);
void [itemTexts, byVectors];
void [recalledDefault, omitReason, recallTotals.memoryChars, recallDate, relevance, recalled.chars + recalled.estimatedTokens];
const recalledBlock: string = injectionBlock(recalled.content, { scope: "team", recalled: recalled.totals });
void recalledBlock;

const policy: ExpiryPolicy = { section: "Current Priorities", maxAgeDays: 30 };
const expireOptions: ExpireOptions = { today: "2025-06-01", policies: [policy] };
const expiry: Expiry = expire("## A", expireOptions);
const expired: ArchivedEntry[] = expiry.archived;
void [expired, expiry.content];

async function useSweep(): Promise<void> {
  const sweepOptions: SweepOptions = { today: "2025-06-01", policies: [policy], actor: "cron" };
  const swept: SweepOutcome = await store.sweep(ref, sweepOptions);
  const sweepStatus: SweepStatus = swept.status;
  void [sweepStatus, swept.archived, swept.revision, swept.content];
}
void useSweep;

async function useRecords(): Promise<void> {
  const records: StoredRecords | null = await store.exportRecords(ref);
  if (records !== null) {
    const snapshot: StoredSnapshot = records.snapshots[0];
    const head: string = records.head;
    const revision: number = await store.importRecords(ref, { head, snapshots: [snapshot] });
    void [revision, snapshot.key, snapshot.value, snapshot.revision];
  }
  const purged: boolean = await store.purge(ref);
  const stored: number = await store.storedRevision(ref);
  const key: string = store.headKey(ref);
  const bad = (error: MemdocError): string | undefined => error.key;
  void [purged, stored, key, bad];
}
void useRecords;

// @ts-expect-error: recalled needs both counts
void injectionBlock("## A", { recalled: { selected: 1 } });
// @ts-expect-error: expire needs today
void expire("## A", { policies: [policy] });
// @ts-expect-error: no such omission reason
const badReason: OmitReason = "stale";
// @ts-expect-error: sweep needs options
void store.sweep(ref);
void badReason;

// ---- embedders (docs/API.md, "Recall by meaning") --------------------------
const aiBinding: WorkersAiBinding = { run: async () => ({ data: [[0.1, 0.2]] }) };
const workersAi: Embedder = workersAiEmbedder(aiBinding, { model: "@cf/baai/bge-m3" });
const openAi: Embedder = openAiEmbedder({ baseURL: "http://localhost:11434/v1", model: "nomic-embed-text", dimensions: 256 });
// @ts-expect-error: a model is required
openAiEmbedder({ baseURL: "http://localhost:11434/v1" });
void [workersAi, openAi];
async function useMiniLm(): Promise<void> {
  const packaged: MiniLmEmbedder = await miniLmEmbedder();
  const options: MiniLmOptions = { weights: new URL("file:///m.safetensors"), tokenizer: new Uint8Array(0) };
  const own: MiniLmEmbedder = await miniLmEmbedder(options);
  const vectors: Float32Array[] = await own.embed(["which database?"], "query");
  const dimensions: 384 = packaged.dimensions;
  void [vectors, dimensions, packaged.id];
  // @ts-expect-error: kind is "query" or "document"
  void packaged.embed(["x"], "passage");
}
void useMiniLm;
