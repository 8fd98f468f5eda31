/** Whose memory a document is. */
export type Scope = "user" | "team";

/** Size limits in code points (defaults: soft 18000, hard 25000). */
export interface Limits {
  soft: number;
  hard: number;
}

/** Options of `validate`. */
export interface ValidateOptions {
  /** Default `"user"`. */
  scope?: Scope | null;
  /** The stored document, for the scope and diff rules. */
  previous?: string | null;
  limits?: Partial<Limits> | null;
  /** Default: the four personal headings of docs/FORMAT.md §9. */
  forbiddenTeamHeadings?: string[] | null;
}

/** Options of `planSave`. */
export interface SaveOptions extends ValidateOptions {
  /** Allow replacing a non-empty memory with an empty one. */
  allowErase?: boolean | null;
}

/** Options of `injectionBlock`. */
export interface InjectOptions {
  scope?: Scope | null;
  limits?: Partial<Limits> | null;
  /** The user's display name (user scope; its first word is used). */
  userName?: string | null;
  /**
   * The content is a recalled part of a larger memory: the opening tag gets
   * `recalled="SELECTED of ITEMS"`. A recall's `totals` can be passed as is.
   */
  recalled?: { selected: number; items: number } | null;
}

/** Options of `writingRules`. */
export interface WritingRulesOptions {
  scope?: Scope | null;
  limits?: Partial<Limits> | null;
}

/** A position: 1-based line, 1-based UTF-16 column, 0-based UTF-16 offset. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

/** A range in the text that was passed in; `end` is exclusive. */
export interface Range {
  start: Position;
  end: Position;
}

/** A dated entry `- YYYY-MM-DD: text`. */
export interface Entry {
  kind: "entry";
  date: string;
  text: string;
  legacyMarker: "fact" | "pref" | "instr" | null;
  range: Range;
}

/** Any other line, trailing white space removed. */
export interface RawLine {
  kind: "raw";
  text: string;
  range: Range;
}

export type Line = Entry | RawLine;

export interface Section {
  title: string;
  /** `false` for the implicit "Memory" section. */
  explicit: boolean;
  /** The heading line (the first entry when implicit). */
  range: Range;
  lines: Line[];
}

export interface MemoryDocument {
  sections: Section[];
  /** Lines before the first heading, which are not kept. */
  preamble: RawLine[];
}

export type Level = "ok" | "soft" | "hard";

export interface Usage {
  /** Code points of the canonical form. */
  chars: number;
  utf8Bytes: number;
  soft: number;
  hard: number;
  /** `"soft"`: above soft; `"hard"`: above hard. */
  level: Level;
}

export type Severity = "error" | "warning" | "info";

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  /** One human sentence. */
  message: string;
  help: string | null;
  /** In the text that was passed in; `null` for the whole document. */
  range: Range | null;
}

export interface Report {
  ok: boolean;
  canonical: string;
  usage: Usage;
  diagnostics: Diagnostic[];
}

export type SaveStatus = "saved" | "no_op" | "rejected";

export interface SavePlan {
  status: SaveStatus;
  /** What the store should hold afterwards. */
  content: string;
  /** Whether `content` differs from the previous document. */
  changed: boolean;
  usage: Usage;
  diagnostics: Diagnostic[];
  /** Preamble lines that were not kept. */
  dropped: string[];
}

/**
 * What memdoc throws (or rejects with): a real `Error` with a stable `code`.
 * For `store/host-failed` after the host threw or rejected, `cause` is the
 * host's own error, unchanged.
 */
export interface MemdocError extends Error {
  code: ErrorCode;
  cause?: unknown;
}

// ---- merge (docs/ops.md) --------------------------------------------------

/** The result of `merge(base, ours, theirs)`. */
export interface MergeResult {
  /**
   * The merged document, canonical. When `clean` is false it holds OURS'
   * version of every conflicting part: show it, never save it without review.
   */
  content: string;
  /** `true` exactly when `conflicts` is empty. */
  clean: boolean;
  /** In the order of the merged sections. */
  conflicts: MergeConflict[];
  /** Preamble lines of the inputs (never kept). */
  dropped: MergeDroppedLine[];
}

export type MergeConflictKind = "lines" | "section-removed" | "title";

export interface MergeConflict {
  /**
   * `"lines"`: the same raw lines changed differently on both sides;
   * `"section-removed"`: removed on one side, changed on the other;
   * `"title"`: a title rewritten differently on both sides.
   */
  kind: MergeConflictKind;
  /** The section's title (ours' when ours has the section). */
  section: string;
  /** `null`: the part is new on both sides. */
  base: ConflictSide | null;
  /** `null`: ours removed the whole section. */
  ours: ConflictSide | null;
  /** `null`: theirs removed the whole section. */
  theirs: ConflictSide | null;
}

export interface ConflictSide {
  /** Canonical lines (for `"section-removed"` the heading line first). */
  lines: string[];
  /** In THIS side's input; empty where this side deleted the lines. */
  range: Range;
}

export type MergeSide = "base" | "ours" | "theirs";

export interface MergeDroppedLine {
  side: MergeSide;
  /** The line without trailing white space. */
  text: string;
  /** In that side's input. */
  range: Range;
}

// ---- recall and expire (docs/API.md, "Recall and expiry") --------------

/** Options of `recall`. */
export interface RecallOptions {
  /** Default `"user"`; decides the section priorities. */
  scope?: Scope | null;
  /** Code points of the returned document, a whole number >= 1; default 4000. */
  budget?: number | null;
  /** `"YYYY-MM-DD"` that ages count to; default the newest entry date of the memory. */
  today?: string | null;
  /** Section titles (compared normalized) whose items are taken first. */
  pinned?: string[] | null;
  /** The weight of each part of the score, each a finite number >= 0. */
  weights?: RecallWeights | null;
  /** Days after which recency halves; a positive number, default 90. */
  halfLifeDays?: number | null;
}

/** Defaults: relevance 1, recency 0.25, priority 0.15. */
export interface RecallWeights {
  relevance?: number | null;
  recency?: number | null;
  priority?: number | null;
}

/** The result of `recall(text, query, options)`. */
export interface Recall {
  /** The recalled part: a valid canonical memory document within the budget. */
  content: string;
  /** Code points of `content`. */
  chars: number;
  /** `ceil(chars / 4)`: an estimate, not a tokenizer's count. */
  estimatedTokens: number;
  /** In document order. */
  selected: RecalledItem[];
  /** In document order. */
  omitted: OmittedItem[];
  totals: RecallTotals;
}

export interface RecalledItem {
  /** Title of its section, as written. */
  section: string;
  /** The entry's text; for another line the line (a code block: its lines joined by "\n"). */
  text: string;
  /** `null` for a line that is not an entry. */
  date: string | null;
  /** The weighted sum of `why.parts`, rounded to millionths. */
  score: number;
  why: RecallWhy;
}

export interface RecallWhy {
  /** The query's words the item or its section title contains, sorted. */
  terms: string[];
  /** Each part from 0 to 1, before weighting. */
  parts: { relevance: number; recency: number; priority: number };
}

export type OmitReason = "budget" | "no-match" | "too-large";

export interface OmittedItem extends RecalledItem {
  reason: OmitReason;
}

export interface RecallTotals {
  items: number;
  selected: number;
  omitted: number;
  /** Code points of the memory's canonical form. */
  memoryChars: number;
  budget: number;
}

/** How long a section's entries are kept. */
export interface ExpiryPolicy {
  /** A section title, compared normalized. */
  section: string;
  /** Entries older than this many whole days expire (0: all before `today`). */
  maxAgeDays: number;
}

/** Options of `expire`. */
export interface ExpireOptions {
  /** `"YYYY-MM-DD"`, required. */
  today: string;
  policies?: ExpiryPolicy[] | null;
}

/** The result of `expire(text, options)`. */
export interface Expiry {
  /** Canonical, without the expired entries. */
  content: string;
  /** Exactly the removed entries, in document order. */
  archived: ArchivedEntry[];
}

// ---- compact (docs/ops.md) ------------------------------------------------

/** Options of `compact`. */
export interface CompactOptions {
  /** Default `"user"`; decides which sections are kept longest. */
  scope?: Scope | null;
  /** Code points of the canonical form, a whole number >= 1; default 25000. */
  target?: number | null;
  /** `"YYYY-MM-DD"`: entry dates after it count as this day. */
  today?: string | null;
}

/** The result of `compact(text, options)`. */
export interface Compaction {
  /** The compacted document, canonical. */
  content: string;
  /** `after <= target`; false when even removing every entry was not enough. */
  fits: boolean;
  target: number;
  /** Code points of the input's canonical form. */
  before: number;
  /** Code points of `content`. */
  after: number;
  /** Step 1, in document order. */
  merged: MergedSection[];
  /** Steps 2 and 3, in the order they were removed. */
  removed: RemovedEntry[];
  /** Preamble lines of the input, never kept. */
  dropped: RawLine[];
}

export interface MergedSection {
  /** Title of the section merged away. */
  from: string;
  fromRange: Range;
  /** Title of the earlier section that received its lines. */
  into: string;
  intoRange: Range;
}

export type RemovalReason = "duplicate" | "oldest";
export type Priority = "transient" | "other" | "facts" | "core";

export interface RemovedEntry {
  /** Title of its section, as written in the input. */
  section: string;
  date: string;
  text: string;
  /** The entry's line in the input. */
  range: Range;
  reason: RemovalReason;
  /** Class of its section. */
  priority: Priority;
  /** `reason: "duplicate"`: the entry kept in its place. */
  duplicateOf: Entry | null;
}

// ---- the store (API.md, "Persistence through the host") -----------------

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

/** One memory. `id`: 1-128 of `[A-Za-z0-9._@:-]`, starting alphanumeric. */
export interface MemoryRef {
  scope: Scope;
  id: string;
}

/** What the `rewrite` callback is asked to do. */
export interface RewriteRequest {
  /** Instructions for a model, ending with the document. */
  prompt: string;
  /** The canonical document that is over the hard limit. */
  content: string;
  /** The size to reach, in code points. */
  target: number;
}

/** Options of `new MemoryStore(host, options)`. */
export interface StoreOptions {
  limits?: Partial<Limits> | null;
  forbiddenTeamHeadings?: string[] | null;
  /** Default `"memdoc"`. */
  keyPrefix?: string | null;
  /** Revisions kept, 1-1000; default 20. */
  historyDepth?: number | null;
  /**
   * Over the hard limit (and when `rewrite` did not make it fit), compact
   * the document deterministically and archive every removed entry in the
   * revision's `AuditEntry.archived`. Default `false`.
   */
  compactOverLimit?: boolean | null;
  /** Shortens a document over the hard limit (typically an LLM call). */
  rewrite?: ((request: RewriteRequest) => Promise<string>) | null;
  /** An ISO timestamp; default `new Date().toISOString()`. */
  now?: (() => string) | null;
  /**
   * How long each host call (`get`, `put`, `delete`) may take, in
   * milliseconds (a whole number, 1 to 2147483647); a call that takes longer
   * rejects the operation with `store/host-timeout`. Default: no limit (a
   * host promise that never settles leaves the operation pending). A write
   * that timed out may still be carried out by the host later; the memory
   * stays consistent (compare-and-swap), so reload before retrying.
   */
  timeoutMs?: number | null;
}

/** A memory as stored now. */
export interface Loaded {
  /** `""` when nothing is stored yet. */
  content: string;
  /** `0` when nothing is stored yet. */
  revision: number;
  updatedAt: string | null;
  updatedBy: string | null;
  usage: Usage;
}

/** Options of `save` and `revert`. */
export interface StoreSaveOptions {
  /** The revision the caller edited (0 = none yet). */
  baseRevision: number;
  /** Who is writing, recorded in the audit trail (at most 256 characters). */
  actor?: string | null;
  allowErase?: boolean | null;
  /** Default `"reject"`. */
  onConflict?: "reject" | "merge" | null;
}

export type StoreStatus = "saved" | "no_op" | "rejected" | "conflict";

/** The result of `save` and `revert`: the `SavePlan` fields and more. */
export interface SaveOutcome {
  status: StoreStatus;
  /** What the store holds now. */
  content: string;
  /** Whether this save changed the stored content. */
  changed: boolean;
  usage: Usage;
  /** Ranges point into the text that was planned (the update, the rewrite's reply or the merge). */
  diagnostics: Diagnostic[];
  /** Preamble lines that were not kept. */
  dropped: string[];
  /** The revision stored now. */
  revision: number;
  /** E.g. that the content was rewritten, compacted or merged, or why a conflict happened. */
  notice: string | null;
}

/** An entry that compaction removed to make a revision fit, or that a sweep expired. */
export interface ArchivedEntry {
  section: string;
  date: string;
  text: string;
}

/** One revision in the audit trail. */
export interface AuditEntry {
  revision: number;
  /** ISO timestamp. */
  at: string;
  actor: string | null;
  /** Code points of the content. */
  chars: number;
  /** Change in code points. */
  delta: number;
  /** Diagnostic codes of the save. */
  codes: string[];
  /** Entries removed by `compactOverLimit` or by `sweep` (usually empty). */
  archived: ArchivedEntry[];
}

/** Options of `MemoryStore.sweep`. */
export interface SweepOptions {
  /** `"YYYY-MM-DD"`, required. */
  today: string;
  policies?: ExpiryPolicy[] | null;
  /** Who sweeps, recorded in the audit trail (at most 256 characters). */
  actor?: string | null;
}

/** `"unchanged"` and `"conflict"` wrote nothing. */
export type SweepStatus = "swept" | "unchanged" | "conflict";

/** The result of `MemoryStore.sweep`. */
export interface SweepOutcome {
  status: SweepStatus;
  /** What the store holds now. */
  content: string;
  /** The revision stored now. */
  revision: number;
  /** The entries this sweep removed, also in the new revision's audit entry. */
  archived: ArchivedEntry[];
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
  /** Release the WebAssembly memory now instead of at garbage collection. */
  free(): void;
}
