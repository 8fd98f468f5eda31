// Generated from the Rust types that cross the boundary (src/js/declarations/): do not edit.

/** Whose memory a document is. */
export type Scope = "user" | "team";

/** Size limits in code points (defaults: soft 18000, hard 25000). */
export interface Limits {
  /** Above this, a `size/soft-limit` warning. */
  soft: number;
  /** Above this, a `size/hard-limit` error. */
  hard: number;
}

/** Options of `validate`. */
export interface ValidateOptions {
  /** Default `"user"`. */
  scope?: Scope | null;
  /** The stored document, for the scope and diff rules. */
  previous?: string | null;
  /** Either limit may be left out: its default applies. */
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
  /** Default `"user"`. */
  scope?: Scope | null;
  /** Either limit may be left out: its default applies. */
  limits?: Partial<Limits> | null;
  /** The user's display name (user scope; its first word is used). */
  userName?: string | null;
  /**
   * The content is a recalled part of a larger memory: the opening tag gets
   * `recalled="SELECTED of ITEMS"`. A recall's `totals` can be passed as is
   * (its other fields are ignored).
   */
  recalled?: {
    /** Items taken, a whole number ≥ 0. */
    selected: number;
    /** Items in the memory, a whole number ≥ `selected`. */
    items: number;
  } | null;
}

/** Options of `writingRules`. */
export interface WritingRulesOptions {
  /** Default `"user"`. */
  scope?: Scope | null;
  /** Either limit may be left out: its default applies. */
  limits?: Partial<Limits> | null;
}

/**
 * A position as editors and JavaScript count it: 1-based line, 1-based
 * UTF-16 column, 0-based UTF-16 offset.
 */
export interface Position {
  /** 1-based line number. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
  /** 0-based offset from the start of the text, in UTF-16 code units. */
  offset: number;
}

/** A range in the text that was passed in; `end` is exclusive. */
export interface Range {
  /** Where the range starts. */
  start: Position;
  /** Where the range ends (exclusive). */
  end: Position;
}

/** A dated entry `- YYYY-MM-DD: text`. */
export interface Entry {
  /** Always `"entry"`. */
  kind: "entry";
  /** `YYYY-MM-DD`. */
  date: string;
  /** The text after the date. */
  text: string;
  /**
   * The marker of a legacy `- (YYYY-MM-DD) [marker] text` entry, or
   * `null`.
   */
  legacyMarker: "fact" | "pref" | "instr" | null;
  /** The entry's line. */
  range: Range;
}

/** Any other line, trailing white space removed. */
export interface RawLine {
  /** Always `"raw"`. */
  kind: "raw";
  /** The line without trailing white space. */
  text: string;
  /** The line. */
  range: Range;
}

/** A line of a section: an entry or any other line (`kind` tells which). */
export type Line = Entry | RawLine;

/** A section: its heading and lines. */
export interface Section {
  /** The title, as written. */
  title: string;
  /** `false` for the implicit "Memory" section. */
  explicit: boolean;
  /** The heading line (the first entry when implicit). */
  range: Range;
  /** The lines, in order. */
  lines: Line[];
}

/** The result of `parse`: the sections and the preamble. */
export interface MemoryDocument {
  /** The sections, in order. */
  sections: Section[];
  /** Lines before the first heading, which are not kept. */
  preamble: RawLine[];
}

/** Where a size stands against the limits. */
export type Level = "ok" | "soft" | "hard";

/** The size of a canonical text against the limits. */
export interface Usage {
  /** Code points of the canonical form. */
  chars: number;
  /** UTF-8 bytes. */
  utf8Bytes: number;
  /** The soft limit used. */
  soft: number;
  /** The hard limit used. */
  hard: number;
  /**
   * Where `chars` stands: `"soft"` above the soft limit, `"hard"` above
   * the hard limit.
   */
  level: Level;
}

/** How much a finding matters. An error blocks a save; a warning does not. */
export type Severity = "error" | "warning" | "info";

/** A finding about a document. */
export interface Diagnostic {
  /** The stable code. */
  code: DiagnosticCode;
  /** An error blocks a save; a warning does not. */
  severity: Severity;
  /** One human sentence. */
  message: string;
  /** How to fix it, or `null`. */
  help: string | null;
  /** In the text that was passed in; `null` for the whole document. */
  range: Range | null;
}

/** The result of `validate`. */
export interface Report {
  /** No finding is an error. */
  ok: boolean;
  /** The canonical form. */
  canonical: string;
  /** The size of the canonical form. */
  usage: Usage;
  /** The findings. */
  diagnostics: Diagnostic[];
}

/** What a save does. */
export type SaveStatus = "saved" | "no_op" | "rejected";

/** The result of `planSave`. */
export interface SavePlan {
  /** What the save does. */
  status: SaveStatus;
  /** What the store should hold afterwards. */
  content: string;
  /** Whether `content` differs from the previous document. */
  changed: boolean;
  /** The size of the proposed canonical form. */
  usage: Usage;
  /** The findings; ranges in the updated text. */
  diagnostics: Diagnostic[];
  /** Preamble lines that were not kept. */
  dropped: string[];
}

// ---- merge (docs/ops.md) ------------------------------------------------

/** The result of `merge(base, ours, theirs)`. */
export interface MergeResult {
  /**
   * The merged document, canonical. When `clean` is false it holds OURS'
   * version of every conflicting part: show it, never save it without
   * review.
   */
  content: string;
  /** `true` exactly when `conflicts` is empty. */
  clean: boolean;
  /** In the order of the merged sections. */
  conflicts: MergeConflict[];
  /** Preamble lines of the inputs (never kept). */
  dropped: MergeDroppedLine[];
}

/** What kind of disagreement a conflict is. */
export type MergeConflictKind = "entry" | "lines" | "section-removed" | "title";

/** A part of the document that the two sides changed incompatibly. */
export interface MergeConflict {
  /**
   * `"entry"`: one entry of the base changed differently on both sides,
   * or changed on one and removed on the other;
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

/** One side's version of a conflicting part. */
export interface ConflictSide {
  /** Canonical lines (for `"section-removed"` the heading line first). */
  lines: string[];
  /** In THIS side's input; empty where this side deleted the lines. */
  range: Range;
}

/** Which input of a merge something comes from. */
export type MergeSide = "base" | "ours" | "theirs";

/** A preamble line of one input, which no merged document keeps. */
export interface MergeDroppedLine {
  /** The input it was in. */
  side: MergeSide;
  /** The line without trailing white space. */
  text: string;
  /** In that side's input. */
  range: Range;
}

// ---- recall and expire (docs/API.md, "Recall and expiry") ----------------

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

/**
 * The weight of each part of a recall's score. Defaults: relevance 1,
 * recency 0.25, priority 0.15.
 */
export interface RecallWeights {
  /** Default 1. */
  relevance?: number | null;
  /** Default 0.25. */
  recency?: number | null;
  /** Default 0.15. */
  priority?: number | null;
}

/** The result of `recall`. */
export interface Recall {
  /**
   * The recalled part: a valid canonical memory document within the
   * budget, each selected item under its section's heading, sections and
   * items in their original order.
   */
  content: string;
  /** Code points of `content` (at most the budget). */
  chars: number;
  /**
   * An estimate of the tokens of `content`: code points / 4, rounded up.
   * Real tokenizers differ; use it for rough accounting only.
   */
  estimatedTokens: number;
  /** The items taken, in document order. */
  selected: RecalledItem[];
  /** The items left out, in document order. */
  omitted: OmittedItem[];
  /** Counts. */
  totals: RecallTotals;
}

/** An item that `recall` took. */
export interface RecalledItem {
  /** The title of its section, as written. */
  section: string;
  /**
   * The entry's text; for another line the line as written (a code
   * block: its lines joined by `"\n"`).
   */
  text: string;
  /** The entry's date; none (`null`) for a line that is not an entry. */
  date: string | null;
  /**
   * Where it is in the text recalled from: its line (a code block: from
   * its opening fence to its last line that is not blank).
   */
  range: Range;
  /**
   * Its score: `why.relevance`, `why.recency.normalized` and
   * `why.priority.normalized` weighted and added, rounded to millionths.
   */
  score: number;
  /** Why it scored so. */
  why: RecallWhy;
}

/** The explanation of a score. */
export interface RecallWhy {
  /**
   * The query's words (stop words apart) the item or its section title
   * contains, sorted.
   */
  terms: string[];
  /**
   * How well the item answers the query, from 0 to 1: the higher of the
   * lexical and the semantic relevance. Under 0.5 (the floor) the item
   * does not answer it.
   */
  relevance: number;
  /** BM25 (`raw`) and its calibrated relevance (`normalized`). */
  lexical: RecallMeasure;
  /**
   * The cosine of the item's and the query's vectors (`raw`) and its
   * calibrated relevance (`normalized`); none (`null`) without vectors.
   */
  semantic: RecallMeasure | null;
  /**
   * The age in days (`raw`, none for an undated line) and
   * `0.5^(age / half-life)` (`normalized`).
   */
  recency: RecallRecency;
  /** The section's compaction class (`raw`) and its value (`normalized`). */
  priority: RecallPriority;
  /** Whether the item's section is pinned (taken first). */
  pinned: boolean;
  /**
   * The line of the later entry of its section that states the same
   * thing with a newer date (docs/FORMAT.md §12, "The current fact
   * first"); none (`null`) when the item is current, or does not answer
   * the query.
   */
  supersededBy: number | null;
}

/** A part of a score: as measured, and from 0 to 1. */
export interface RecallMeasure {
  /** As measured. */
  raw: number;
  /** From 0 to 1. */
  normalized: number;
}

/** Recency: the age in days, and its value. */
export interface RecallRecency {
  /**
   * Whole days from the entry's date to `today` (0 for a later date);
   * none (`null`) for a line without a date, or without a day to count to.
   */
  raw: number | null;
  /** `0.5^(age / half-life)`; 0.5 when undated, 1 with no day to count to. */
  normalized: number;
}

/** Priority: the section's compaction class, and its value. */
export interface RecallPriority {
  /** The class. */
  raw: Priority;
  /** Core 1, facts 2/3, other 1/3, transient 0. */
  normalized: number;
}

/** Why `recall` left an item out. */
export type OmitReason = "budget" | "no-match" | "too-large" | "superseded";

/** An item that `recall` left out, and why. */
export interface OmittedItem {
  /** The title of its section, as written. */
  section: string;
  /**
   * The entry's text; for another line the line as written (a code
   * block: its lines joined by `"\n"`).
   */
  text: string;
  /** The entry's date; none (`null`) for a line that is not an entry. */
  date: string | null;
  /**
   * Where it is in the text recalled from: its line (a code block: from
   * its opening fence to its last line that is not blank).
   */
  range: Range;
  /**
   * Its score: `why.relevance`, `why.recency.normalized` and
   * `why.priority.normalized` weighted and added, rounded to millionths.
   */
  score: number;
  /** Why it scored so. */
  why: RecallWhy;
  /** Why it was left out. */
  reason: OmitReason;
}

/** The counts of a `Recall`. */
export interface RecallTotals {
  /** Items in the memory. */
  items: number;
  /** Items taken. */
  selected: number;
  /** Items left out. */
  omitted: number;
  /**
   * Items that answer the query (relevance at or above the floor and,
   * by meaning, the query at the embedder's query floor), or every item
   * when the query has no words. 0: nothing in the memory
   * answers the query, and nothing is selected (pinned sections apart).
   */
  relevant: number;
  /** Code points of the memory's canonical form. */
  memoryChars: number;
  /** The budget used. */
  budget: number;
}

/** How long a section's entries are kept. */
export interface ExpiryPolicy {
  /**
   * A section title, compared normalized (not empty once normalized);
   * required.
   */
  section: string;
  /**
   * Entries older than this many whole days expire (0: all before
   * `today`); required.
   */
  maxAgeDays: number;
}

/** Options of `expire`. */
export interface ExpireOptions {
  /** `"YYYY-MM-DD"`, required. */
  today: string;
  /** The policies (none: nothing expires). */
  policies?: ExpiryPolicy[] | null;
}

/** The result of `expire`. */
export interface Expiry {
  /** The document without the expired entries, canonical. */
  content: string;
  /** Exactly the removed entries, in document order. */
  archived: ExpiredEntry[];
}

/** An entry that `expire` removed. */
export interface ExpiredEntry {
  /** The title of its section, as written. */
  section: string;
  /** Its date. */
  date: string;
  /** Its text. */
  text: string;
}

// ---- compact (docs/ops.md) ----------------------------------------------

/** Options of `compact`. */
export interface CompactOptions {
  /** Default `"user"`; decides which sections are kept longest. */
  scope?: Scope | null;
  /**
   * Code points of the canonical form, a whole number >= 1; default 25000
   * (the default hard limit).
   */
  target?: number | null;
  /** `"YYYY-MM-DD"`: entry dates after it count as this day. */
  today?: string | null;
}

/** The result of `compact(text, options)`. */
export interface Compaction {
  /** The compacted document, canonical. */
  content: string;
  /**
   * `after <= target`; false when even removing every entry was not
   * enough.
   */
  fits: boolean;
  /** The target used. */
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

/**
 * A section that compaction merged into an earlier one with the same
 * normalized title.
 */
export interface MergedSection {
  /** Title of the section merged away. */
  from: string;
  /** Its heading. */
  fromRange: Range;
  /** Title of the earlier section that received its lines. */
  into: string;
  /** Its heading (its first entry when implicit). */
  intoRange: Range;
}

/** Why compaction removed an entry. */
export type RemovalReason = "duplicate" | "oldest";

/**
 * How long a section's entries are kept when compaction has to remove some.
 * Lower classes lose their entries first.
 */
export type Priority = "transient" | "other" | "facts" | "core";

/** An entry that compaction removed. */
export interface RemovedEntry {
  /** Title of its section, as written in the input. */
  section: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Its text. */
  text: string;
  /** The entry's line in the input. */
  range: Range;
  /** Why it was removed. */
  reason: RemovalReason;
  /** Class of its section. */
  priority: Priority;
  /** `reason: "duplicate"`: the entry kept in its place; otherwise `null`. */
  duplicateOf: Entry | null;
}

// ---- the store (API.md, "Persistence through the host") -----------------

/** One memory. `id`: 1-128 of `[A-Za-z0-9._@:-]`, starting alphanumeric. */
export interface MemoryRef {
  /** Whose memory it is. */
  scope: Scope;
  /** The id. */
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
  /** Either limit may be left out: its default applies. */
  limits?: Partial<Limits> | null;
  /** Default: the four personal headings of docs/FORMAT.md §9. */
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

/** A memory as it is stored now. */
export interface Loaded {
  /** The canonical content; `""` when nothing is stored yet. */
  content: string;
  /** The current revision; `0` when nothing is stored yet. */
  revision: number;
  /** When the current revision was saved. */
  updatedAt: string | null;
  /** Who saved it, when known. */
  updatedBy: string | null;
  /** The size of the content. */
  usage: Usage;
}

/** Options of `save` and `revert`. */
export interface StoreSaveOptions {
  /** The revision the caller edited (0 = none yet); required. */
  baseRevision: number;
  /** Who is writing, recorded in the audit trail (at most 256 characters). */
  actor?: string | null;
  /** Allow replacing a non-empty memory with an empty one. */
  allowErase?: boolean | null;
  /** Default `"reject"`. */
  onConflict?: "reject" | "merge" | null;
}

/** What a store save did. */
export type StoreStatus = "saved" | "no_op" | "rejected" | "conflict";

/** The result of `save` and `revert`: the `SavePlan` fields and more. */
export interface SaveOutcome {
  /** What the save did. */
  status: StoreStatus;
  /** What the store holds now. */
  content: string;
  /** Whether this save changed the stored content. */
  changed: boolean;
  /** The size of the planned content (of the stored one for a conflict). */
  usage: Usage;
  /**
   * Ranges point into the text that was planned (the update, the
   * rewrite's reply or the merge).
   */
  diagnostics: Diagnostic[];
  /** Preamble lines that were not kept. */
  dropped: string[];
  /** The revision stored now. */
  revision: number;
  /**
   * E.g. that the content was rewritten, compacted or merged, or why a
   * conflict happened; otherwise `null`.
   */
  notice: string | null;
  /**
   * A `merge` save that conflicts: every conflict, as
   * `merge(base, ours, theirs)` gives it with base = the base revision,
   * ours = what is stored now (`content`) and theirs = the caller's edit;
   * each side's range is in that side's text. Otherwise empty.
   */
  conflicts: MergeConflict[];
  /**
   * A `merge` save that conflicts: the merged text with conflict markers
   * (`<<<<<<< stored (revision N)`, what is stored, `=======`, the edit,
   * `>>>>>>> your edit (from revision B)`) around each conflicting part,
   * to edit and save with `baseRevision` N. Otherwise `null`.
   */
  merged: string | null;
}

/**
 * An entry that compaction removed from a save, or that a sweep expired,
 * as the audit trail keeps it.
 */
export interface ArchivedEntry {
  /** The title of the section it was in. */
  section: string;
  /** Its date, `YYYY-MM-DD`. */
  date: string;
  /** Its text. */
  text: string;
}

/** One revision in the audit trail. */
export interface AuditEntry {
  /** The revision this save created. */
  revision: number;
  /** ISO timestamp. */
  at: string;
  /** Who saved it, or `null`. */
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
  /** The policies (none: nothing expires). */
  policies?: ExpiryPolicy[] | null;
  /** Who sweeps, recorded in the audit trail (at most 256 characters). */
  actor?: string | null;
}

/** What a sweep did; `"unchanged"` and `"conflict"` wrote nothing. */
export type SweepStatus = "swept" | "unchanged" | "conflict";

/** The result of a sweep. */
export interface SweepOutcome {
  /** What the sweep did. */
  status: SweepStatus;
  /** What the store holds now. */
  content: string;
  /** The revision stored now. */
  revision: number;
  /**
   * The entries this sweep removed (also in the new revision's audit
   * entry); empty unless `status` is `swept`.
   */
  archived: ArchivedEntry[];
}

/**
 * A memory's records as stored: its head record and the kept snapshots
 * it names, each the very string the store wrote.
 */
export interface StoredRecords {
  /** The head record. */
  head: string;
  /** The kept snapshots the head names, newest first. */
  snapshots: StoredSnapshot[];
}

/** One kept snapshot as stored. */
export interface StoredSnapshot {
  /** The revision it holds. */
  revision: number;
  /** Its key, as the head names it. */
  key: string;
  /** The snapshot record. */
  value: string;
}
