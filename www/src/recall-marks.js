// The items a recall selected, marked in the text: each one's range is the
// engine's (`RecalledItem.range`, UTF-16 offsets into the text recalled
// from), never found by searching the text here. Hovering a mark shows its
// `why`. Between recalls the marks move with the edits.

import { Decoration } from "@codemirror/view";
import { replacedMarks } from "./marks.js";

const marks = replacedMarks(({ title }) => Decoration.mark({
  class: "cm-recalled",
  attributes: { title, "data-testid": "recalled-mark" },
}));

/** Replace the marks with `[{ from, to, title }]` (ranges of the document as it is now). */
export const setRecalled = marks.replace;

/** The marks of the selected items: replaced by each recall, mapped through edits in between. */
export const recalledMarks = marks.field;
