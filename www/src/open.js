// Opening a memory: the form that names it, the URL that remembers it, and
// restoring an unsaved draft of it.

import { state, describeError } from "./session.js";
import { byTestId } from "./dom.js";
import { flushDraft, readDraft, writeDraft } from "./drafts.js";
import { renderOutcome } from "./views.js";
import { setBusy } from "./status.js";
import { adoptRevision } from "./revision.js";
import { followOpenMemory } from "./live.js";

/** The memory (`MemoryRef`) and actor the form names. */
export function readForm() {
  const form = byTestId("memory-form");
  const data = new FormData(form);
  return {
    ref: { scope: data.get("scope") === "team" ? "team" : "user", id: String(data.get("id") ?? "").trim() },
    actor: String(data.get("actor") ?? "").trim(),
  };
}

export function writeUrl() {
  const url = new URL(location.href);
  url.searchParams.set("scope", state.ref.scope);
  url.searchParams.set("id", state.ref.id);
  if (state.actor) url.searchParams.set("actor", state.actor);
  history.replaceState(null, "", url);
}

/** Keep the very latest keystrokes of the open memory as its draft. */
export function keepLatestDraft() {
  flushDraft();
  if (state.ref && state.editor.getText() !== state.base) {
    writeDraft(state.ref, state.editor.getText(), state.baseRevision);
  }
}

export async function openMemory(ref) {
  keepLatestDraft();
  setBusy(true);
  try {
    const loaded = await state.store.load(ref);
    const draft = readDraft(ref);
    const restore = draft !== null && draft.text !== loaded.content;
    let base = loaded;
    if (restore && draft.baseRevision !== loaded.revision) {
      // The draft was written against another revision: keep that as the
      // base so that saving it surfaces the conflict instead of overwriting.
      const older = draft.baseRevision > 0 ? await state.store.revision(ref, draft.baseRevision) : null;
      base = { ...loaded, revision: draft.baseRevision, content: older ?? loaded.content };
    }
    // From here on nothing awaits until the editor shows the new memory, so
    // a validation cannot pair one memory's text with another's ref.
    state.ref = ref;
    writeUrl();
    const outcome = restore
      ? { status: "draft", title: `Restored your unsaved draft (edited from revision ${draft.baseRevision}).` }
      : {
        status: "loaded",
        title: loaded.revision === 0
          ? `Opened ${ref.scope} memory “${ref.id}”: empty, not saved yet.`
          : `Opened ${ref.scope} memory “${ref.id}” at revision ${loaded.revision}.`,
      };
    await adoptRevision(base, { text: restore ? draft.text : loaded.content, fresh: true, outcome });
    followOpenMemory();
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not open the memory: ${describeError(error)}` });
  } finally {
    setBusy(false);
  }
}
