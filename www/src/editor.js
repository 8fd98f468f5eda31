// The CodeMirror 6 editor and its one lint source. Each lint run calls the
// engine's `validate` exactly once (and `parse` once, for the entry dates)
// and puts that one Report in the editor's state (`reportField`); the marks,
// the problem list, the meter and the preview are all derived from it (the
// panels, called when it changes), so typing costs one validation per
// pause, never one per keystroke or per panel.

import { Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, placeholder,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { syntaxHighlighting, defaultHighlightStyle, HighlightStyle } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { linter, lintGutter, forceLinting, lintKeymap } from "@codemirror/lint";

import { el } from "./dom.js";
import { entryDates, setEntryDates } from "./entry-dates.js";
import { recalledMarks } from "./recall-marks.js";

/** Milliseconds of quiet typing before the document is validated. */
export const LINT_DELAY = 250;

/** The User Timing measure of the last check (see the lint source). */
export const CHECK_MEASURE = "memdoc-check";

const memoryHighlight = HighlightStyle.define([
  { tag: tags.heading2, fontWeight: "700", color: "var(--heading)" },
  { tag: tags.heading, fontWeight: "700", color: "var(--heading)" },
  { tag: tags.monospace, fontFamily: "var(--mono)", color: "var(--code)" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.link, color: "var(--accent)", textDecoration: "underline" },
  { tag: tags.processingInstruction, color: "var(--muted)" },
]);

/**
 * Engine diagnostics -> CodeMirror diagnostics. Engine ranges are UTF-16
 * offsets into the very text that was validated, which is what CodeMirror
 * positions are, so they are used as they are (clamped only as a guard).
 * Whole-document findings (range null) are pinned to the start of line 1.
 */
export function toEditorDiagnostics(report, docLength) {
  const clamp = (n) => Math.max(0, Math.min(docLength, n));
  return report.diagnostics.map((d) => {
    const from = d.range ? clamp(d.range.start.offset) : 0;
    const to = d.range ? clamp(d.range.end.offset) : 0;
    return {
      from,
      to: Math.max(from, to),
      severity: d.severity,
      source: d.code,
      message: d.message,
      renderMessage: () => el("div", { class: "lint-message" },
        el("div", { class: "lint-text", text: d.message }),
        d.help ? el("div", { class: "lint-help", text: d.help }) : null,
        el("code", { class: "lint-code", text: d.code })),
    };
  });
}

const setReport = StateEffect.define();

/**
 * The last check of the document: `{ report, text, ms, checks }`, the
 * engine's Report of `text`, how long `validate` took, and how many checks
 * this editor has made; null until the first.
 */
export const reportField = StateField.define({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setReport)) return effect.value;
    return value;
  },
});

/**
 * Create the editor in `parent`.
 * - `validate(text)`: returns the engine Report for the text (called once per lint run).
 * - `dates(text)`: the ranges `{ from, to }` of the entry dates in the text
 *   (entry-dates.js), marked after each validation.
 * - `panels`: functions called with each new check (`reportField`'s value):
 *   everything else that depends on the report.
 * - `onSave()`: Mod-S.
 */
export function createEditor(parent, { validate, dates, panels, onSave, label }) {
  // The options changed (scope, the previous revision), not the text: this
  // effect tells the linter to run again all the same.
  const optionsChanged = StateEffect.define();
  let checks = 0;
  const memoryLint = linter((view) => {
    const text = view.state.doc.toString();
    const started = performance.now();
    const report = validate(text);
    const ms = performance.now() - started;
    checks += 1;
    // The document is still `text` here: the ranges fit it.
    view.dispatch({ effects: [setReport.of({ report, text, ms, checks }), setEntryDates.of(dates(text))] });
    const diagnostics = toEditorDiagnostics(report, text.length);
    // The whole check (validate, the report's views, the marks), as a User
    // Timing entry for `npm run bench:editor`; the newest one is enough.
    // It ends here, before the bookkeeping of the entries themselves.
    const ended = performance.now();
    performance.clearMeasures(CHECK_MEASURE);
    performance.measure(CHECK_MEASURE, { start: started, end: ended });
    return diagnostics;
  }, {
    delay: LINT_DELAY,
    needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((e) => e.is(optionsChanged))),
  });

  // Read-only for a key that may not save (a reader's): no typing, no Save.
  const writable = new Compartment();
  let readOnly = false;
  const modes = (flag) => [EditorState.readOnly.of(flag), EditorView.editable.of(!flag)];
  const base = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    EditorView.lineWrapping,
    markdown(),
    syntaxHighlighting(memoryHighlight),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    reportField,
    EditorView.updateListener.of((update) => {
      const checked = update.state.field(reportField);
      if (checked && checked !== update.startState.field(reportField, false)) for (const panel of panels) panel(checked);
    }),
    entryDates,
    recalledMarks,
    lintGutter(),
    memoryLint,
    placeholder("## Section\n- 2025-03-15: Something worth remembering"),
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => { onSave(); return true; } },
      ...lintKeymap,
      ...historyKeymap,
      // Tab is left alone: it moves the focus on, so the editor is no
      // keyboard trap (memory documents have no use for tab characters).
      ...defaultKeymap,
    ]),
    EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "editor-content" }),
  ];
  const extensions = () => [...base, writable.of(modes(readOnly))];
  const view = new EditorView({ parent, state: EditorState.create({ doc: "", extensions: extensions() }) });

  return {
    view,
    getText: () => view.state.doc.toString(),
    /** The last check (`reportField`), null before the first. */
    checked: () => view.state.field(reportField),
    /**
     * Show another memory (or another revision of it): a fresh state, so that
     * undo can never bring back text that belongs to what was shown before.
     */
    load(text) {
      const hadFocus = view.hasFocus;
      view.setState(EditorState.create({ doc: text, extensions: extensions() }));
      if (hadFocus) view.focus();
    },
    /**
     * Replace the text. Only the differing middle is replaced, so the cursor
     * stays where it was when a save merely canonicalizes a few lines.
     */
    setText(text) {
      const old = view.state.doc.toString();
      if (old === text) return;
      let start = 0;
      const max = Math.min(old.length, text.length);
      while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start += 1;
      let endOld = old.length;
      let endNew = text.length;
      while (endOld > start && endNew > start && old.charCodeAt(endOld - 1) === text.charCodeAt(endNew - 1)) {
        endOld -= 1;
        endNew -= 1;
      }
      view.dispatch({ changes: { from: start, to: endOld, insert: text.slice(start, endNew) } });
    },
    /** Whether the text can be edited (false: a reader's key). */
    setReadOnly(flag) {
      readOnly = flag;
      view.dispatch({ effects: writable.reconfigure(modes(flag)) });
    },
    /** Move the cursor to a range, scroll it into view and focus the editor. */
    select(from, to) {
      const len = view.state.doc.length;
      const anchor = Math.max(0, Math.min(len, from));
      const head = Math.max(0, Math.min(len, to));
      view.dispatch({ selection: { anchor, head }, scrollIntoView: true });
      view.focus();
    },
    /** Validate again now (the options changed, not the text). */
    relint() {
      view.dispatch({ effects: optionsChanged.of(null) });
      forceLinting(view);
    },
  };
}
