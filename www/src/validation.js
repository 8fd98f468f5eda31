// The panels that follow each check of the document (the editor's
// `reportField`): the meter, the problem list, the preview, the recall
// panel, the conflict's "yours", the unsaved marker and the draft, the
// compact button, and the check's time. Each is called with the check
// `{ report, text, ms, checks }`; none keeps a copy of it.

import { state } from "./session.js";
import { byTestId, showText } from "./dom.js";
import { scheduleDraft, clearDraft } from "./drafts.js";
import { renderUsage, renderProblems, renderPreview } from "./views.js";
import { renderDirty } from "./status.js";
import { recallAfterCheck } from "./recall-panel.js";

function previewOpen() {
  return byTestId("preview-panel").open;
}

/** The preview of the prompt block, from the last check (when the panel is open). */
export function refreshPreview() {
  const checked = state.editor?.checked();
  if (!checked || !previewOpen()) return;
  const { report, text } = checked;
  const scope = state.ref?.scope ?? "user";
  const block = state.engine.injectionBlock(report.canonical, {
    scope,
    ...(state.limits ? { limits: state.limits } : {}),
    userName: scope === "user" ? state.actor || null : null,
  });
  renderPreview({ canonical: report.canonical, block, text, diagnostics: report.diagnostics });
}

function problems({ report }) {
  renderUsage(report.usage);
  renderProblems(report.diagnostics, (d) => {
    if (d.range) state.editor.select(d.range.start.offset, d.range.end.offset);
    else state.editor.select(0, 0);
  });
}

function conflictOurs({ text }) {
  if (state.conflict) byTestId("conflict-ours").textContent = text;
}

/** The unsaved marker, and the draft kept while the text differs from the revision. */
function unsaved({ text }) {
  state.dirty = state.ref !== null && text !== state.base;
  renderDirty();
  if (state.ref) {
    if (state.dirty) scheduleDraft(state.ref, text, state.baseRevision);
    else clearDraft(state.ref);
  }
}

function compactButton({ report }) {
  const compact = byTestId("compact");
  const noCompact = report.usage.level === "ok" || typeof state.engine.compact !== "function";
  if (compact.hidden !== noCompact) compact.hidden = noCompact;
}

function checkTime({ ms, checks }) {
  const stats = byTestId("validate-stats");
  stats.dataset.count = String(checks);
  stats.dataset.lastMs = ms.toFixed(2);
  showText(stats, `checked in ${ms < 1 ? "<1" : Math.round(ms)} ms`);
}

/** In order: what the person reads first is drawn first. */
export const reportPanels = [problems, refreshPreview, recallAfterCheck, conflictOurs, unsaved, compactButton, checkTime];
