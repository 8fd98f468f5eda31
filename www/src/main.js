// The memory editor: wires the CodeMirror editor, the engine (validate,
// injectionBlock) and a MemoryStore on the browser's localStorage, or a
// memdoc hub (hub-source.js), together.
// The store is used only through its public interface (load, save, history,
// revision, revert), exactly as any host application would. This file only
// starts the page and connects its controls; each concern has its module.

import { startEngine, createStore } from "./engine.js";
import { createEditor } from "./editor.js";
import { entryDateRanges } from "./entry-dates.js";
import { byTestId } from "./dom.js";
import { renderOutcome } from "./views.js";
import { state, params, validateOptions, describeError } from "./session.js";
import { setBusy, renderRevision, showEngineError } from "./status.js";
import { refreshPreview, reportPanels } from "./validation.js";
import { readForm, writeUrl, openMemory, keepLatestDraft } from "./open.js";
import { save, revertTo } from "./save.js";
import { conflictSaveResult, conflictOverwrite, conflictReload } from "./conflict-exits.js";
import { compactToSoftLimit } from "./compaction.js";
import { refreshHistory, onRevertRequest } from "./history.js";
import { loadRemote, mergeRemote, scheduleRemoteCheck } from "./remote.js";
import { initSource, formRef } from "./hub-source.js";
import { initRecallPanel } from "./recall-panel.js";

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
    const ref = formRef();
    byTestId("memory-id").value = ref.id;
    if (!state.hub) state.actor = readForm().actor;
    if (!state.store) {
      state.ref = ref;
      renderRevision();
      state.editor?.relint();
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
  const { editor } = state;
  byTestId("save").addEventListener("click", () => save());
  byTestId("compact").addEventListener("click", compactToSoftLimit);
  byTestId("conflict-save").addEventListener("click", conflictSaveResult);
  byTestId("conflict-overwrite").addEventListener("click", conflictOverwrite);
  byTestId("conflict-reload").addEventListener("click", conflictReload);
  byTestId("remote-reload").addEventListener("click", loadRemote);
  byTestId("remote-merge").addEventListener("click", mergeRemote);
  byTestId("preview-panel").addEventListener("toggle", refreshPreview);
  byTestId("history-panel").addEventListener("toggle", () => { if (byTestId("history-panel").open) refreshHistory(); });
  onRevertRequest(revertTo);
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
  window.addEventListener("storage", scheduleRemoteCheck);
  // The draft is written when the page is idle after each validation; on
  // leaving the page (or hiding it, which may be the last chance on a
  // phone), the very latest text is written at once.
  window.addEventListener("beforeunload", keepLatestDraft);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") keepLatestDraft();
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
  state.editor = createEditor(byTestId("editor"), {
    label: "Memory document (Markdown)",
    validate: (text) => state.engine.validate(text, validateOptions()),
    dates: (text) => entryDateRanges(state.engine.parse(text), text),
    panels: reportPanels,
    onSave: () => save(),
  });
  initButtons();
  initRecallPanel();
  if (storeError) {
    // Validation still works; loading and saving do not. Say so, plainly.
    showEngineError(`Saving is unavailable: ${describeError(storeError)}`);
    state.ref = readForm().ref;
    renderRevision();
    document.body.dataset.ready = "no-store";
    return;
  }
  setBusy(false);
  if (!(await initSource())) await openMemory(readForm().ref);
  document.body.dataset.ready = "true";
}

start();
