// The items a recall selected, marked in the text: each one's range is the
// engine's (`RecalledItem.range`, UTF-16 offsets into the text recalled
// from), never found by searching the text here. Hovering a mark shows its
// `why`. Between recalls the marks move with the edits.

import { StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView } from "@codemirror/view";

/** Replace the marks with `[{ from, to, title }]` (ranges of the document as it is now). */
export const setRecalled = StateEffect.define();

/** The marks of the selected items: replaced by each recall, mapped through edits in between. */
export const recalledMarks = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setRecalled)) continue;
      const length = tr.state.doc.length;
      next = Decoration.set(
        effect.value
          .filter(({ from, to }) => from < to && to <= length)
          .map(({ from, to, title }) => Decoration.mark({
            class: "cm-recalled",
            attributes: { title, "data-testid": "recalled-mark" },
          }).range(from, to)),
      );
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});
