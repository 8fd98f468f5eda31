// The dates of entry lines (`- 2025-03-15: …`), shown quietly so the text
// stands out. Which text is an entry's date is the engine's word, not a
// pattern of the editor's own: each check parses the text it validated
// (`parse`, docs/API.md) and marks the date of every entry it found, so a
// line inside a code fence or with an impossible date (2025-02-30), which
// the engine reads as a raw line, is not marked. Between checks the marks
// move with the edits.

import { Decoration } from "@codemirror/view";
import { replacedMarks } from "./marks.js";

const dateMark = Decoration.mark({ class: "cm-entry-date" });

/**
 * The UTF-16 ranges `{ from, to }` of the entry dates in `text`, from the
 * engine's parse of that very text (`document`, a `MemoryDocument`). An
 * entry's range is its line; its date is the first occurrence of the date
 * on that line (`- 2025-03-15:`, or legacy `- (2025-03-15) [fact]`).
 */
export function entryDateRanges(document, text) {
  const ranges = [];
  for (const section of document.sections) {
    for (const line of section.lines) {
      if (line.kind !== "entry") continue;
      const start = line.range.start.offset;
      const at = text.slice(start, line.range.end.offset).indexOf(line.date);
      if (at >= 0) ranges.push({ from: start + at, to: start + at + line.date.length });
    }
  }
  return ranges;
}

const marks = replacedMarks(() => dateMark);

/** Replace the marked dates with these ranges (of the document as it is now). */
export const setEntryDates = marks.replace;

/** The marks of the entry dates: replaced by each check, mapped through edits in between. */
export const entryDates = marks.field;
