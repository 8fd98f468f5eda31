// Type-checked with `tsc --noEmit -p test-js` (never run): every exported
// function and type of the package, used the way a TypeScript user would.
import init, {
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
  type Diagnostic,
  type DiagnosticCode,
  type Entry,
  type ErrorCode,
  type InjectOptions,
  type Level,
  type Limits,
  type Line,
  type MemdocError,
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
} from "memdoc";

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
void [level, code, severity, where, status, dropped, block, codes, errors, v];

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
