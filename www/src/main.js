// The memory editor: wires the CodeMirror editor, the engine (validate,
// injectionBlock) and a MemoryStore on the browser's localStorage together.
// The store is used only through its public interface (load, save, history,
// revision, revert), exactly as any host application would.

import { startEngine, createStore } from "./engine.js";
import { createEditor } from "./editor.js";
import { readDraft, writeDraft, clearDraft } from "./drafts.js";
import { byTestId, el, replaceChildren, formatTime } from "./dom.js";
import { renderUsage, renderProblems, renderPreview, renderHistory, renderOutcome } from "./views.js";

const params = new URLSearchParams(location.search);

/** Optional limits from the URL (`?soft=…&hard=…`), used for validation and by the store alike. */
function limitsFromUrl() {
  const limits = {};
  for (const name of ["soft", "hard"]) {
    const value = params.get(name);
    if (value !== null && /^\d+$/.test(value)) limits[name] = Number(value);
  }
  return Object.keys(limits).length ? limits : undefined;
}

const state = {
  engine: null,
  store: null,
  limits: limitsFromUrl(),
  ref: null,
  actor: "editor",
  base: "", // the content of the revision being edited: `previous` for validation
  baseRevision: 0,
  updatedAt: null,
  updatedBy: null,
  report: null,
  reportText: "",
  dirty: false,
  conflict: null, // { theirs: Loaded, baseRevision, base }
  busy: false,
  validations: 0,
};

let editor;

function showEngineError(message) {
  const banner = byTestId("engine-error");
  banner.textContent = message;
  banner.hidden = false;
}

function describeError(error) {
  const code = error && typeof error === "object" && "code" in error ? ` (${error.code})` : "";
  const cause = error?.cause ? `: ${error.cause.message ?? String(error.cause)}` : "";
  return `${error?.message ?? String(error)}${code}${cause}`;
}

function validateOptions() {
  return {
    scope: state.ref?.scope ?? "user",
    previous: state.baseRevision > 0 ? state.base : null,
    ...(state.limits ? { limits: state.limits } : {}),
  };
}

function setBusy(on) {
  state.busy = on;
  for (const id of ["save", "conflict-merge", "conflict-overwrite", "conflict-reload", "open"]) {
    byTestId(id).disabled = on;
  }
  document.body.setAttribute("aria-busy", on ? "true" : "false");
}

function renderRevision() {
  const label = byTestId("revision");
  label.dataset.revision = String(state.baseRevision);
  if (state.baseRevision === 0) {
    label.textContent = `${state.ref.scope} · ${state.ref.id} · new memory (no revision yet)`;
  } else {
    const who = state.updatedBy ? ` by ${state.updatedBy}` : "";
    const when = state.updatedAt ? `, ${formatTime(state.updatedAt)}` : "";
    label.textContent = `${state.ref.scope} · ${state.ref.id} · revision ${state.baseRevision}${who}${when}`;
  }
}

function renderDirty() {
  byTestId("dirty").hidden = !state.dirty;
  document.title = `${state.dirty ? "• " : ""}memdoc — ${state.ref ? state.ref.id : "memory editor"}`;
}

// ---------------------------------------------------------------- validation

function previewOpen() {
  return byTestId("preview-panel").open;
}

function refreshPreview() {
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
function onReport(report, text, ms) {
  state.report = report;
  state.reportText = text;
  state.validations += 1;
  renderUsage(report.usage);
  renderProblems(report.diagnostics, (d) => {
    if (d.range) editor.select(d.range.start.offset, d.range.end.offset);
    else editor.select(0, 0);
  });
  refreshPreview();
  if (state.conflict) byTestId("conflict-ours").textContent = text;
  state.dirty = state.ref !== null && text !== state.base;
  renderDirty();
  if (state.ref) {
    if (state.dirty) writeDraft(state.ref, text, state.baseRevision);
    else clearDraft(state.ref);
  }
  byTestId("compact").hidden = report.usage.level === "ok" || typeof state.engine.compact !== "function";
  const stats = byTestId("validate-stats");
  stats.dataset.count = String(state.validations);
  stats.dataset.lastMs = ms.toFixed(2);
  stats.textContent = `checked in ${ms < 1 ? "<1" : Math.round(ms)} ms`;
}

// ---------------------------------------------------------------- loading

function readForm() {
  const form = byTestId("memory-form");
  const data = new FormData(form);
  return {
    ref: { scope: data.get("scope") === "team" ? "team" : "user", id: String(data.get("id") ?? "").trim() },
    actor: String(data.get("actor") ?? "").trim(),
  };
}

function writeUrl() {
  const url = new URL(location.href);
  url.searchParams.set("scope", state.ref.scope);
  url.searchParams.set("id", state.ref.id);
  if (state.actor) url.searchParams.set("actor", state.actor);
  history.replaceState(null, "", url);
}

/** Take a Loaded (from the store) as the new base revision. */
function adoptLoaded(loaded) {
  state.base = loaded.content;
  state.baseRevision = loaded.revision;
  state.updatedAt = loaded.updatedAt;
  state.updatedBy = loaded.updatedBy;
}

async function openMemory(ref) {
  // Keep the very latest keystrokes of the memory being left.
  if (state.ref && editor.getText() !== state.base) writeDraft(state.ref, editor.getText(), state.baseRevision);
  setBusy(true);
  try {
    const loaded = await state.store.load(ref);
    const draft = readDraft(ref);
    const restore = draft !== null && draft.text !== loaded.content;
    let olderBase = null;
    if (restore && draft.baseRevision !== loaded.revision && draft.baseRevision > 0) {
      // The draft was written against an older revision: keep that as the
      // base so that saving it surfaces the conflict instead of overwriting.
      olderBase = await state.store.revision(ref, draft.baseRevision);
    }
    // From here on nothing awaits until the editor shows the new memory, so
    // a validation cannot pair one memory's text with another's ref.
    state.ref = ref;
    adoptLoaded(loaded);
    closeConflict();
    hideRemoteChange();
    if (restore) {
      if (draft.baseRevision !== loaded.revision) {
        state.baseRevision = draft.baseRevision;
        state.base = olderBase ?? loaded.content;
      }
      editor.load(draft.text);
      renderOutcome({
        status: "draft",
        title: `Restored your unsaved draft (edited from revision ${draft.baseRevision}).`,
      });
    } else {
      editor.load(loaded.content);
      renderOutcome({
        status: "loaded",
        title: loaded.revision === 0
          ? `Opened ${ref.scope} memory “${ref.id}”: empty, not saved yet.`
          : `Opened ${ref.scope} memory “${ref.id}” at revision ${loaded.revision}.`,
      });
    }
    renderRevision();
    writeUrl();
    editor.relint();
    await refreshHistory();
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not open the memory: ${describeError(error)}` });
  } finally {
    setBusy(false);
  }
}

// ---------------------------------------------------------------- saving

function formatDiagnostic(d) {
  const where = d.range ? `line ${d.range.start.line}: ` : "";
  return `${where}${d.message} [${d.code}]`;
}

/** Apply a store outcome (save or revert) of `submitted` text. */
async function applyOutcome(outcome, submitted, verb) {
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
  state.base = outcome.content;
  state.baseRevision = outcome.revision;
  if (outcome.status === "saved" && outcome.changed) {
    state.updatedBy = state.actor || null;
    state.updatedAt = new Date().toISOString();
  }
  // Show what is stored (the canonical form), unless the person kept typing
  // while the save was in flight: then their newer text stays, now dirty.
  if (editor.getText() === submitted) editor.setText(outcome.content);
  clearDraft(state.ref);
  closeConflict();
  hideRemoteChange();
  const warnings = outcome.diagnostics.filter((d) => d.severity !== "error").map(formatDiagnostic);
  const details = [...(outcome.notice ? [outcome.notice] : []), ...warnings];
  if (outcome.dropped?.length) details.push(`Dropped text before the first heading: ${outcome.dropped.join(" / ")}`);
  let title;
  if (outcome.status === "no_op") title = `No change: the memory stays at revision ${outcome.revision}.`;
  else if (!outcome.changed) title = `Nothing changed: the memory stays at revision ${outcome.revision}.`;
  else title = `${verb === "reverted" ? "Reverted" : "Saved"}: revision ${outcome.revision}.`;
  renderOutcome({ status: outcome.status === "saved" && outcome.changed ? "saved" : "no_op", title, details });
  renderRevision();
  editor.relint();
  await refreshHistory();
}

async function save({ onConflict = "reject", baseRevision = state.baseRevision } = {}) {
  if (state.busy || !state.ref) return;
  const submitted = editor.getText();
  setBusy(true);
  try {
    const outcome = await state.store.save(state.ref, submitted, {
      baseRevision,
      actor: state.actor || null,
      onConflict,
    });
    await applyOutcome(outcome, submitted, "saved");
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

// ---------------------------------------------------------------- conflicts

async function openConflict(ours) {
  const theirs = await state.store.load(state.ref);
  state.conflict = { theirs, baseRevision: state.baseRevision, base: state.base };
  byTestId("conflict-summary").textContent =
    `Revision ${theirs.revision} was saved${theirs.updatedBy ? ` by ${theirs.updatedBy}` : ""}` +
    `${theirs.updatedAt ? ` at ${formatTime(theirs.updatedAt)}` : ""} while you were editing revision ${state.baseRevision}. ` +
    "Nothing has been overwritten. Merge keeps both sets of changes when they do not touch the same lines.";
  byTestId("conflict-ours").textContent = ours;
  byTestId("conflict-theirs").textContent = theirs.content;
  byTestId("conflict-theirs-caption").textContent =
    `Theirs (revision ${theirs.revision}${theirs.updatedBy ? `, ${theirs.updatedBy}` : ""})`;
  byTestId("conflict-detail").hidden = true;
  byTestId("conflict-merge").hidden = false;
  hideRemoteChange();
  const panel = byTestId("conflict");
  panel.hidden = false;
  renderOutcome({
    status: "conflict",
    title: `Conflict: revision ${theirs.revision} was saved by ${theirs.updatedBy ?? "someone else"} after you opened revision ${state.baseRevision}. Choose merge, overwrite or reload.`,
  });
  byTestId("conflict-title").focus();
}

function closeConflict() {
  state.conflict = null;
  byTestId("conflict").hidden = true;
}

const CONFLICT_KIND = {
  lines: "the same lines were changed differently on both sides",
  "section-removed": "removed on one side and changed on the other",
  title: "the title was rewritten differently on both sides",
};

function sideBlock(label, side) {
  return el("figure", { class: "side" },
    el("figcaption", { text: label }),
    el("pre", { text: side === null ? "(section removed)" : side.lines.join("\n") || "(lines deleted)" }));
}

/**
 * The store could not merge cleanly: list what collides (engine `merge`, see
 * docs/ops.md) and offer to edit the merged text, which holds our side of
 * each conflict, on top of their revision.
 */
function describeMergeConflicts(ours) {
  const detail = byTestId("conflict-detail");
  const { base, theirs } = state.conflict;
  if (typeof state.engine.merge !== "function") {
    replaceChildren(detail, el("p", { text: "Both versions changed the same part of the memory, so they cannot be merged automatically." }));
    detail.hidden = false;
    return;
  }
  const result = state.engine.merge(base, ours, theirs.content);
  // Merging again would stop at the same place.
  byTestId("conflict-merge").hidden = true;
  const items = result.conflicts.map((c) => el("li", { "data-testid": "conflict-item", "data-kind": c.kind },
    el("p", {}, el("strong", { text: c.section }), `: ${CONFLICT_KIND[c.kind] ?? c.kind}`),
    el("div", { class: "versions" }, sideBlock("Yours", c.ours), sideBlock("Theirs", c.theirs))));
  replaceChildren(detail,
    el("p", { text: `The automatic merge stopped at ${items.length} conflict${items.length === 1 ? "" : "s"}:` }),
    el("ul", { class: "conflict-items" }, items),
    el("button", {
      type: "button",
      "data-testid": "conflict-edit-merged",
      text: "Edit the merged text (your side where they collide)",
      onClick: () => {
        keepText(editor.getText());
        adoptLoaded(theirs);
        editor.setText(result.content);
        closeConflict();
        renderRevision();
        editor.relint();
        renderOutcome({
          status: "draft",
          title: `The merged text is in the editor, on top of revision ${theirs.revision}. Check the conflicting parts, then save.`,
        });
        editor.select(0, 0);
      },
    }));
  detail.hidden = false;
}

async function conflictMerge() {
  if (!state.conflict) return;
  const ours = editor.getText();
  const outcome = await save({ onConflict: "merge", baseRevision: state.conflict.baseRevision });
  if (outcome?.status === "conflict") describeMergeConflicts(ours);
}

async function conflictOverwrite() {
  if (!state.conflict) return;
  // Theirs stays in the history, so overwriting loses nothing.
  await save({ baseRevision: state.conflict.theirs.revision });
}

function keepText(text) {
  byTestId("kept-text").textContent = text;
  byTestId("kept").hidden = false;
}

async function conflictReload() {
  if (!state.conflict) return;
  const ours = editor.getText();
  keepText(ours);
  const theirs = await state.store.load(state.ref);
  adoptLoaded(theirs);
  editor.load(theirs.content);
  clearDraft(state.ref);
  closeConflict();
  renderRevision();
  editor.relint();
  renderOutcome({ status: "loaded", title: `Loaded revision ${theirs.revision}. Your version is kept below.` });
  await refreshHistory();
}

// ---------------------------------------------------------------- compaction

/**
 * Shrink an over-limit memory with the engine's `compact` (duplicates first,
 * then the oldest, least important entries). The result only goes into the
 * editor: the person reviews and saves it, and the text before stays below.
 */
function compactToSoftLimit() {
  if (!state.report) return;
  const text = editor.getText();
  const result = state.engine.compact(text, { scope: state.ref?.scope ?? "user", target: state.report.usage.soft });
  keepText(text);
  editor.setText(result.content);
  const removed = result.removed.map((r) => `${r.section}: ${r.date} ${r.text} (${r.reason === "duplicate" ? "duplicate" : "oldest"})`);
  const merged = result.merged.map((m) => `Section “${m.from}” merged into “${m.into}”.`);
  renderOutcome({
    status: "draft",
    title: `Compacted ${result.before.toLocaleString("en-US")} → ${result.after.toLocaleString("en-US")} characters` +
      `${result.fits ? "" : " (still over the target)"}: ${result.removed.length} entries removed. Review, then save; your text before is kept below.`,
    details: [...merged, ...removed.slice(0, 40), ...(removed.length > 40 ? [`… and ${removed.length - 40} more.`] : [])],
  });
}

// ---------------------------------------------------------------- history

async function refreshHistory() {
  if (!state.ref) return;
  try {
    const entries = await state.store.history(state.ref);
    renderHistory(entries, state.baseRevision, { onView: viewRevision, onRevert: revertTo });
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not read the history: ${describeError(error)}` });
  }
}

async function viewRevision(revision) {
  const text = await state.store.revision(state.ref, revision);
  const box = byTestId("revision-view");
  byTestId("revision-view-title").textContent = `Revision ${revision}`;
  byTestId("revision-view-text").textContent = text === null
    ? "This revision is no longer kept (older than the history depth)."
    : text;
  box.hidden = false;
  box.dataset.revision = String(revision);
  byTestId("revision-view-title").focus();
}

async function revertTo(revision) {
  if (state.busy) return;
  const current = editor.getText();
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
    if (outcome.status === "saved" || outcome.status === "no_op") editor.setText(outcome.content);
    await applyOutcome(outcome, editor.getText(), "reverted");
  } catch (error) {
    renderOutcome({ status: "error", title: `Revert failed: ${describeError(error)}` });
  } finally {
    setBusy(false);
  }
}

// ---------------------------------------------------------------- other tabs

let remoteTimer = null;

function hideRemoteChange() {
  byTestId("remote-change").hidden = true;
}

/** Another tab wrote to localStorage: tell the person if their memory moved on. */
async function checkRemote({ force = false } = {}) {
  if (!state.ref || (state.busy && !force)) return;
  let latest;
  try {
    latest = await state.store.load(state.ref);
  } catch {
    return;
  }
  if (latest.revision === state.baseRevision) return;
  if (!state.dirty && !state.conflict) {
    adoptLoaded(latest);
    editor.load(latest.content);
    renderRevision();
    editor.relint();
    renderOutcome({ status: "loaded", title: `Updated to revision ${latest.revision}, saved by ${latest.updatedBy ?? "someone"} in another tab.` });
    await refreshHistory();
    return;
  }
  byTestId("remote-change-text").textContent =
    `Revision ${latest.revision} was saved by ${latest.updatedBy ?? "someone"} in another tab. Saving now will show both versions.`;
  byTestId("remote-change").hidden = false;
}

async function loadRemote() {
  const current = editor.getText();
  if (current !== state.base) keepText(current);
  const latest = await state.store.load(state.ref);
  adoptLoaded(latest);
  editor.load(latest.content);
  clearDraft(state.ref);
  hideRemoteChange();
  closeConflict();
  renderRevision();
  editor.relint();
  await refreshHistory();
}

// ---------------------------------------------------------------- start

function initForm() {
  const form = byTestId("memory-form");
  const scope = params.get("scope") === "team" ? "team" : "user";
  form.querySelector(`input[name=scope][value=${scope}]`).checked = true;
  if (params.get("id")) byTestId("memory-id").value = params.get("id");
  if (params.get("actor")) byTestId("actor").value = params.get("actor");
  state.actor = byTestId("actor").value.trim();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const { ref, actor } = readForm();
    state.actor = actor;
    if (!state.store) {
      state.ref = ref;
      renderRevision();
      editor?.relint();
      return;
    }
    openMemory(ref);
  });
  for (const radio of form.querySelectorAll("input[name=scope]")) {
    radio.addEventListener("change", () => form.requestSubmit());
  }
  byTestId("actor").addEventListener("change", () => {
    state.actor = byTestId("actor").value.trim();
    if (state.ref) writeUrl();
    refreshPreview();
  });
}

function initButtons() {
  byTestId("save").addEventListener("click", () => save());
  byTestId("compact").addEventListener("click", compactToSoftLimit);
  byTestId("conflict-merge").addEventListener("click", conflictMerge);
  byTestId("conflict-overwrite").addEventListener("click", conflictOverwrite);
  byTestId("conflict-reload").addEventListener("click", conflictReload);
  byTestId("remote-reload").addEventListener("click", loadRemote);
  byTestId("preview-panel").addEventListener("toggle", refreshPreview);
  byTestId("history-panel").addEventListener("toggle", () => { if (byTestId("history-panel").open) refreshHistory(); });
  byTestId("revision-view-close").addEventListener("click", () => { byTestId("revision-view").hidden = true; });
  byTestId("kept-dismiss").addEventListener("click", () => { byTestId("kept").hidden = true; });
  byTestId("kept-restore").addEventListener("click", () => {
    editor.setText(byTestId("kept-text").textContent);
    byTestId("kept").hidden = true;
    editor.select(0, 0);
  });
  byTestId("kept-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(byTestId("kept-text").textContent);
      renderOutcome({ status: "info", title: "Copied your kept version to the clipboard." });
    } catch (error) {
      renderOutcome({ status: "error", title: `Could not copy: ${describeError(error)}` });
    }
  });
  window.addEventListener("storage", () => {
    clearTimeout(remoteTimer);
    remoteTimer = setTimeout(checkRemote, 100);
  });
  window.addEventListener("beforeunload", () => {
    // The draft is written after each validation; write the very latest too.
    if (state.ref && editor.getText() !== state.base) writeDraft(state.ref, editor.getText(), state.baseRevision);
  });
}

async function start() {
  initForm();
  setBusy(true);
  try {
    state.engine = await startEngine();
  } catch (error) {
    showEngineError(`The memdoc engine could not start: ${describeError(error)}`);
    document.body.dataset.ready = "error";
    return;
  }
  let storeError = null;
  try {
    state.store = createStore(state.engine, state.limits);
  } catch (error) {
    storeError = error;
  }
  editor = createEditor(byTestId("editor"), {
    label: "Memory document (Markdown)",
    validate: (text) => state.engine.validate(text, validateOptions()),
    onReport,
    onSave: () => save(),
  });
  initButtons();
  if (storeError) {
    // Validation still works; loading and saving do not. Say so, plainly.
    showEngineError(`Saving is unavailable: ${describeError(storeError)}`);
    state.ref = readForm().ref;
    renderRevision();
    document.body.dataset.ready = "no-store";
    return;
  }
  setBusy(false);
  await openMemory(readForm().ref);
  document.body.dataset.ready = "true";
}

start();
