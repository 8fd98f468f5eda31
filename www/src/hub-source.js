// Where memories come from: this browser's store (the default, offline) or
// a memdoc hub. The hub's URL and key are kept in this tab's sessionStorage
// only (never in the page URL, never in localStorage), so a reload stays
// connected and closing the tab forgets the key. Connected, the person is
// the key's member: the actor field shows it, their user memory is the one
// whose id is their member id, and the panel lists the memories the key can
// open (refreshed whenever the panel opens).

import { state, describeError } from "./session.js";
import { byTestId, el, replaceChildren } from "./dom.js";
import { createStore } from "./engine.js";
import { connectHub } from "./hub-store.js";
import { openMemory, readForm } from "./open.js";
import { readerOnly, setBusy } from "./status.js";
import { renderOutcome } from "./views.js";

const KEPT = "memdoc-editor:hub";

function remembered() {
  try {
    const raw = sessionStorage.getItem(KEPT);
    const kept = raw ? JSON.parse(raw) : null;
    return typeof kept?.url === "string" && typeof kept?.key === "string" ? kept : null;
  } catch {
    return null;
  }
}

function remember(kept) {
  try {
    if (kept) sessionStorage.setItem(KEPT, JSON.stringify(kept));
    else sessionStorage.removeItem(KEPT);
  } catch {
    // storage refused: the connection lasts until the page reloads
  }
}

/** Open `ref` as if the person had picked it in the form. */
function pick(ref) {
  byTestId(`scope-${ref.scope}`).checked = true;
  byTestId("memory-id").value = ref.id;
  byTestId("memory-form").requestSubmit();
}

/** List the memories the key can open (the hub's index), each a button that opens it. */
async function refreshMemories() {
  if (!state.hub || !byTestId("source-panel").open) return;
  let memories;
  try {
    memories = await state.store.memories();
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not list the hub's memories: ${describeError(error)}` });
    return;
  }
  byTestId("hub-memories-empty").hidden = memories.length > 0;
  replaceChildren(byTestId("hub-memories"), memories.map((ref) => el("li", {},
    el("button", { type: "button", "data-testid": "hub-memory", "data-scope": ref.scope, "data-id": ref.id, text: `${ref.scope} · ${ref.id}`, onClick: () => pick(ref) }))));
}

function renderSource(me, url) {
  const status = byTestId("hub-status");
  byTestId("hub-connect").hidden = Boolean(me);
  byTestId("hub-disconnect").hidden = !me;
  byTestId("hub-url").disabled = Boolean(me);
  byTestId("hub-key").disabled = Boolean(me);
  byTestId("actor").readOnly = Boolean(me);
  byTestId("hub-directory").hidden = !me;
  document.body.dataset.source = me ? "hub" : "browser";
  // A reader's key may not save: the editor is read-only and Save disabled.
  state.editor?.setReadOnly(readerOnly());
  setBusy(state.busy);
  if (me) {
    status.textContent = `Connected to ${url} as ${me.member} (${me.role}) in team ${me.team}. Your user memory is “${me.member}”; team memories are opened by id.${readerOnly() ? " This key may only read: the memory is shown read-only." : ""}`;
    byTestId("hub-user-memory").textContent = me.member;
  } else {
    status.textContent = "Memories are kept in this browser.";
  }
}

/** The ref the key can open: a user memory is always the member's own. */
function visibleRef(ref, me) {
  return ref.scope === "user" ? { scope: "user", id: me.member } : ref;
}

async function connect(url, key) {
  const { store, me } = await connectHub(url, key);
  remember({ url, key });
  state.store = store;
  state.hub = me;
  state.actor = me.member;
  byTestId("actor").value = me.member;
  renderSource(me, store.url);
  const ref = visibleRef(readForm().ref, me);
  byTestId("memory-id").value = ref.id;
  await openMemory(ref);
  await refreshMemories();
}

async function disconnect() {
  remember(null);
  state.store = createStore(state.engine, state.limits);
  state.hub = null;
  renderSource(null);
  await openMemory(readForm().ref);
}

/** Wire the source controls; reconnect to a hub this tab was connected to. Resolves once a memory is open. */
export async function initSource() {
  const form = byTestId("hub-form");
  const kept = remembered();
  if (kept) byTestId("hub-url").value = kept.url;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    try {
      await connect(byTestId("hub-url").value.trim(), byTestId("hub-key").value.trim());
      byTestId("hub-key").value = "";
    } catch (error) {
      renderOutcome({ status: "error", title: `Could not connect to the hub: ${describeError(error)}` });
    }
  });
  byTestId("hub-disconnect").addEventListener("click", disconnect);
  byTestId("source-panel").addEventListener("toggle", refreshMemories);
  renderSource(null);
  if (!kept) return false;
  try {
    await connect(kept.url, kept.key);
    return true;
  } catch (error) {
    renderOutcome({ status: "error", title: `Could not reconnect to the hub: ${describeError(error)}. Memories are kept in this browser.` });
    return false;
  }
}

/** The memory the form names, as the connected key can see it. */
export function formRef() {
  const { ref } = readForm();
  return state.hub ? visibleRef(ref, state.hub) : ref;
}
