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
  /** Default: the four personal headings of FORMAT.md §9. */
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

/** Every stable diagnostic code (FORMAT.md §9); `diagnosticCodes()` lists them at run time. */
export type DiagnosticCode =
  | "size/hard-limit"
  | "size/soft-limit"
  | "structure/missing-heading"
  | "scope/personal-heading"
  | "scope/legacy-personal-heading"
  | "diff/section-removed"
  | "diff/shrink"
  | "entry/nonstandard"
  | "structure/duplicate-heading"
  | "structure/unclosed-fence"
  | "structure/preamble-dropped"
  | "save/would-erase";

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

/** The `code` of every error memdoc throws; `errorCodes()` lists them at run time. */
export type ErrorCode =
  | "options/invalid-scope"
  | "options/invalid-limits"
  | "options/invalid"
  | "input/not-a-string"
  | "options/invalid-target"
  | "options/invalid-date"
  | "internal/panic"
  | "internal/error";

/** What memdoc throws: a real `Error` with a stable `code`. */
export interface MemdocError extends Error {
  code: ErrorCode;
}
