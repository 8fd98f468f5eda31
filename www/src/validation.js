// Everything that follows one validation report: the meter, the problem
// list, the preview, the unsaved marker and the draft, the compact button.

import { state } from "./session.js";
import { byTestId, showText } from "./dom.js";
import { scheduleDraft, clearDraft } from "./drafts.js";
import { renderUsage, renderProblems, renderPreview } from "./views.js";
import { renderDirty } from "./status.js";
import { recallAfterCheck } from "./recall-panel.js";

function previewOpen() {
  return byTestId("preview-panel").open;
}

export function refreshPreview() {
  if (!state.report || !previewOpen()) return;
  const scope = state.ref?.scope ?? "user";
  const block = state.engine.injectionBlock(state.report.canonical, {
    scope,
    ...(state.limits ? { limits: state.limits } : {}),
    userName: scope === "user" ? state.actor || null : null,
  });
  renderPreview({
    canonical: state.report.canonical,
    block,
    text: state.reportText,
    diagnostics: state.report.diagnostics,
  });
}

/** Called by the lint source with the one Report of this run. */
export function onReport(report, text, ms) {
  const { editor } = state;
  state.report = report;
  state.reportText = text;
  state.validations += 1;
  renderUsage(report.usage);
  renderProblems(report.diagnostics, (d) => {
    if (d.range) editor.select(d.range.start.offset, d.range.end.offset);
    else editor.select(0, 0);
  });
  refreshPreview();
  recallAfterCheck();
  if (state.conflict) byTestId("conflict-ours").textContent = text;
  state.dirty = state.ref !== null && text !== state.base;
  renderDirty();
  if (state.ref) {
    if (state.dirty) scheduleDraft(state.ref, text, state.baseRevision);
    else clearDraft(state.ref);
  }
  const compact = byTestId("compact");
  const noCompact = report.usage.level === "ok" || typeof state.engine.compact !== "function";
  if (compact.hidden !== noCompact) compact.hidden = noCompact;
  const stats = byTestId("validate-stats");
  stats.dataset.count = String(state.validations);
  stats.dataset.lastMs = ms.toFixed(2);
  showText(stats, `checked in ${ms < 1 ? "<1" : Math.round(ms)} ms`);
}
