// Writing to the store: saving the editor's text and reverting to a kept
// revision, and showing what came of it.

import { state, describeError } from "./session.js";
import { renderOutcome } from "./views.js";
import { readerOnly, setBusy, keepText } from "./status.js";
import { adoptRevision } from "./revision.js";
import { openConflict } from "./conflict.js";
import { checkRemote } from "./remote.js";

function formatDiagnostic(d) {
  const where = d.range ? `line ${d.range.start.line}: ` : "";
  return `${where}${d.message} [${d.code}]`;
}

/**
 * Apply a store outcome (save or revert) of `submitted` text; `shown`: the
 * editor's text when the save was asked for, when `submitted` is another
 * text (a merged text the person reviewed).
 */
async function applyOutcome(outcome, submitted, verb, shown = submitted) {
  if (outcome.status === "conflict") {
    await openConflict(submitted);
    return;
  }
  if (outcome.status === "rejected") {
    const errors = outcome.diagnostics.filter((d) => d.severity === "error");
    renderOutcome({
      status: "rejected",
      title: `Not ${verb}: ${errors.length} error${errors.length === 1 ? "" : "s"} must be fixed first. Revision ${outcome.revision} is unchanged.`,
      details: errors.map(formatDiagnostic),
    });
    return;
  }
  // saved or no_op: the store now holds outcome.content at outcome.revision.
  const changed = outcome.status === "saved" && outcome.changed;
  const stored = {
    content: outcome.content,
    revision: outcome.revision,
    updatedBy: changed ? state.actor || null : state.updatedBy,
    updatedAt: changed ? new Date().toISOString() : state.updatedAt,
  };
  const warnings = outcome.diagnostics.filter((d) => d.severity !== "error").map(formatDiagnostic);
  const details = [...(outcome.notice ? [outcome.notice] : []), ...warnings];
  if (outcome.dropped?.length) details.push(`Dropped text before the first heading: ${outcome.dropped.join(" / ")}`);
  let title;
  if (outcome.status === "no_op") title = `No change: the memory stays at revision ${outcome.revision}.`;
  else if (!outcome.changed) title = `Nothing changed: the memory stays at revision ${outcome.revision}.`;
  else title = `${verb === "reverted" ? "Reverted" : "Saved"}: revision ${outcome.revision}.`;
  await adoptRevision(stored, {
    // Show what is stored (the canonical form), unless the person kept typing
    // while the save was in flight: then their newer text stays, now dirty.
    text: state.editor.getText() === shown ? outcome.content : null,
    outcome: { status: changed ? "saved" : "no_op", title, details },
  });
}

/**
 * Save the editor's text, or `text` (a merged text the person reviewed: once
 * saved, the editor shows it, and the editor's text is kept on the page);
 * resolves to the store's outcome, or null if the save failed.
 */
export async function save({ onConflict = "reject", baseRevision = state.baseRevision, text = null } = {}) {
  if (state.busy || !state.ref || readerOnly()) return;
  const shown = state.editor.getText();
  const submitted = text ?? shown;
  setBusy(true);
  try {
    const outcome = await state.store.save(state.ref, submitted, {
      baseRevision,
      actor: state.actor || null,
      onConflict,
    });
    if (text !== null && outcome.status === "saved" && shown !== outcome.content) keepText(shown);
    await applyOutcome(outcome, submitted, "saved", shown);
    return outcome;
  } catch (error) {
    renderOutcome({
      status: "error",
      title: `Save failed; your text is still here and kept as a draft. ${describeError(error)}`,
    });
    return null;
  } finally {
    setBusy(false);
  }
}

/** Revert to a kept revision (a new revision); the text being edited is kept on the page. */
export async function revertTo(revision) {
  if (state.busy) return;
  const current = state.editor.getText();
  if (current !== state.base) keepText(current);
  setBusy(true);
  try {
    const outcome = await state.store.revert(state.ref, revision, {
      baseRevision: state.baseRevision,
      actor: state.actor || null,
    });
    if (outcome.status === "conflict") {
      // Someone saved after the revision this page shows: reverting now would
      // undo their work unseen, so show it first.
      renderOutcome({
        status: "conflict",
        title: `Not reverted: revision ${outcome.revision} was saved in the meantime. Load it, then revert again.`,
      });
      await checkRemote({ force: true });
      return;
    }
    await applyOutcome(outcome, state.editor.getText(), "reverted");
  } catch (error) {
    renderOutcome({ status: "error", title: `Revert failed: ${describeError(error)}` });
  } finally {
    setBusy(false);
  }
}
