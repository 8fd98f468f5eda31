// Marks in the text that the next result replaces as a whole (the entry
// dates after each check, the recalled items after each recall): an effect
// carries the new ranges `{ from, to, … }` of the document as it is now,
// and in between the marks move with the edits.

import { StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView } from "@codemirror/view";

/**
 * A field of marks and the effect that replaces them; `decorate(range)` is
 * the decoration of one range (empty ranges and ranges past the end of the
 * document are left out).
 */
export function replacedMarks(decorate) {
  const replace = StateEffect.define();
  const field = StateField.define({
    create: () => Decoration.none,
    update(marks, tr) {
      let next = marks.map(tr.changes);
      for (const effect of tr.effects) {
        if (!effect.is(replace)) continue;
        const length = tr.state.doc.length;
        next = Decoration.set(
          effect.value
            .filter(({ from, to }) => from < to && to <= length)
            .map((range) => decorate(range).range(range.from, range.to)),
        );
      }
      return next;
    },
    provide: (marks) => EditorView.decorations.from(marks),
  });
  return { replace, field };
}
