// The recall panel: a question and a budget, and what an agent would get
// for them from the text in the editor: the selected items marked in the
// text (recall-marks.js) and listed with their `why`, the omitted ones with
// their reason, and the totals. "By words" is the engine's `recall` and
// needs nothing; "by meaning" is `hybridRecall`, its model loaded on first
// use: the static table in the browser store (recall-embedder-static.js,
// the light option), MiniLM against a hub (recall-embedder.js, the model
// the hub's own recall defaults to on Deno), and for a memory or a question
// mostly not in Latin letters multilingual-e5-small (recall-embedder-e5.js)
// when the page's server serves its model file (e5-model-path.js):
// `hybridRecall`'s `multilingualEmbedder` chooses, and only the model it
// uses is loaded. A recall runs after a pause in the question or
// the budget, and after a check of the document (validation.js), never on
// a keystroke in the editor. It always recalls from the open text, saved or
// not, in the browser as against a hub: the marks are ranges of that text.

import { state, describeError } from "./session.js";
import { el, byTestId, replaceChildren, showText, formatNumber } from "./dom.js";
import { setRecalled } from "./recall-marks.js";
import { E5_MODEL_PATH } from "./e5-model-path.js";

/** Milliseconds of quiet in the question or the budget before a recall. */
export const RECALL_DELAY = 300;

/** The embedder of each source, and the multilingual one: its id, size and loader. */
const MODELS = {
  browser: { id: "all-MiniLM-L6-v2-static-256-v2", dimensions: 256, size: "8 MB", load: () => import("./recall-embedder-static.js") },
  hub: { id: "all-MiniLM-L6-v2", dimensions: 384, size: "45 MB", load: () => import("./recall-embedder.js") },
  multilingual: {
    id: "multilingual-e5-small-q4",
    dimensions: 384,
    size: "72 MB",
    because: "the memory or the question is mostly not in Latin letters",
    load: () => import("./recall-embedder-e5.js"),
  },
};

/** Whether the page's server serves e5's model file: asked once, on the first recall by meaning. */
let e5Served;

const REASONS = {
  budget: "did not fit the budget beside higher-scoring items",
  "no-match": "does not answer the question",
  "too-large": "larger than the budget on its own",
};

let timer = null;
/** The latest recall started: an older one that finishes later is not shown. */
let latest = 0;
const fixed = (n) => n.toFixed(2);

/** The `why` of an item in one line: every part, raw and normalized. */
export function describeWhy(why) {
  const parts = [`relevance ${fixed(why.relevance)}`];
  parts.push(`words ${fixed(why.lexical.normalized)} (BM25 ${fixed(why.lexical.raw)})`);
  if (why.semantic) parts.push(`meaning ${fixed(why.semantic.normalized)} (cosine ${fixed(why.semantic.raw)})`);
  const age = why.recency.raw === null ? "undated" : `${formatNumber(why.recency.raw)} days old`;
  parts.push(`recency ${fixed(why.recency.normalized)} (${age})`);
  parts.push(`priority ${fixed(why.priority.normalized)} (${why.priority.raw})`);
  if (why.pinned) parts.push("pinned");
  if (why.terms.length) parts.push(`matched: ${why.terms.join(", ")}`);
  return parts.join(" · ");
}

function form() {
  return {
    open: byTestId("recall-panel").open,
    question: byTestId("recall-question").value.trim(),
    budget: Number(byTestId("recall-budget").value),
    meaning: byTestId("recall-meaning").checked,
  };
}

function setStatus(status, text) {
  const box = byTestId("recall-status");
  box.dataset.status = status;
  showText(box, text);
}

function mark(ranges) {
  state.editor?.view.dispatch({ effects: setRecalled.of(ranges) });
}

/** Recall again after a pause (the question, the budget, the mode, or the text changed). */
export function scheduleRecall(delay = RECALL_DELAY) {
  clearTimeout(timer);
  timer = setTimeout(runRecall, delay);
}

/** After a check of the document: recall again, later, if the panel shows a recall. */
export function recallAfterCheck() {
  if (byTestId("recall-panel").open && byTestId("recall-question").value.trim() !== "") scheduleRecall();
}

/**
 * The embedder of `model`, one for the page (hybridRecall keeps its
 * vectors by embedder), which loads the model when it first embeds: only
 * the one hybridRecall chooses is loaded. A failed load is tried again by
 * the next recall, and hybridRecall says `degraded` meanwhile.
 */
function embedder(model) {
  model.embedder ??= {
    id: model.id,
    dimensions: model.dimensions,
    embed: async (texts, kind) => {
      if (!model.loaded) {
        setStatus("loading", `Loading the ${model.id} model (${model.size}, once)${model.because ? `: ${model.because}` : ""}…`);
      }
      model.loading ??= model.load().then(({ loadEmbedder }) => loadEmbedder());
      try {
        const loaded = await model.loading;
        model.loaded = true;
        return loaded.embed(texts, kind);
      } catch (error) {
        model.loading = undefined;
        setStatus("error", `The model did not load: ${describeError(error)}`);
        throw error;
      }
    },
  };
  return model.embedder;
}

/** The embedders of a recall by meaning: the source's, and e5 where the page's server has it. */
async function embedders() {
  e5Served ??= fetch(new URL(E5_MODEL_PATH, document.baseURI), { method: "HEAD" }).then((r) => r.ok, () => false);
  return {
    embedder: embedder(MODELS[state.hub ? "hub" : "browser"]),
    ...((await e5Served) ? { multilingualEmbedder: embedder(MODELS.multilingual) } : {}),
  };
}

async function runRecall() {
  const run = ++latest;
  const { open, question, budget, meaning } = form();
  if (!open || question === "" || !state.engine || !state.editor) {
    clear();
    return;
  }
  const text = state.editor.getText();
  const options = { scope: state.ref?.scope ?? "user", budget };
  let result;
  try {
    result = meaning
      ? await state.engine.hybridRecall(text, question, { ...options, ...(await embedders()) })
      : state.engine.recall(text, question, options);
  } catch (error) {
    if (run !== latest) return;
    clear();
    setStatus("error", `Recall failed: ${describeError(error)}`);
    return;
  }
  if (run !== latest) return;
  // The ranges are of `text`: if the document changed meanwhile, its next
  // check recalls again.
  if (state.editor.getText() !== text) return;
  render(result, budget);
  // Which question the shown recall answers (the page's hook for tests).
  byTestId("recall-status").dataset.question = question;
}

function clear() {
  mark([]);
  replaceChildren(byTestId("recall-selected"));
  replaceChildren(byTestId("recall-omitted"));
  byTestId("recall-results").hidden = true;
  setStatus("idle", "Type a question to see what an agent would get.");
  byTestId("recall-status").dataset.question = "";
}

function selectedItem(item) {
  return el("li", { class: "recall-item" },
    el("button", {
      type: "button",
      "data-testid": "recall-selected-item",
      "data-line": item.range.start.line,
      "aria-label": `Show line ${item.range.start.line} in the editor: ${item.text}`,
      onClick: () => state.editor.select(item.range.start.offset, item.range.end.offset),
    },
    el("span", { class: "where", text: `${item.section} · line ${item.range.start.line}` }),
    el("span", { class: "msg", text: item.text })),
    el("p", { class: "why", "data-testid": "recall-why", text: describeWhy(item.why) }));
}

function omittedItem(item) {
  return el("li", { class: "recall-item omitted", "data-testid": "recall-omitted-item", "data-reason": item.reason },
    el("span", { class: "where", text: `${item.section} · line ${item.range.start.line}` }),
    el("span", { class: "msg", text: item.text }),
    el("span", { class: "reason" }, el("code", { text: item.reason }), ` ${REASONS[item.reason] ?? ""}`));
}

/**
 * The omitted items, one collapsed group per reason (a long memory leaves
 * out hundreds of entries for the same reason), in the engine's order of
 * first appearance, the items of each in document order.
 */
function omittedGroups(omitted) {
  const groups = new Map();
  for (const item of omitted) groups.set(item.reason, [...(groups.get(item.reason) ?? []), item]);
  return [...groups].map(([reason, items]) => el("li", { class: "recall-group", "data-testid": "recall-omitted-group", "data-reason": reason },
    el("details", {},
      el("summary", {}, el("code", { text: reason }), ` ${REASONS[reason] ?? ""} (${items.length})`),
      el("ul", { class: "recall-list" }, ...items.map(omittedItem)))));
}

function render(result, budget) {
  mark(result.selected.map((item) => ({
    from: item.range.start.offset,
    to: item.range.end.offset,
    title: describeWhy(item.why),
  })));
  const { totals } = result;
  const degraded = result.semantic?.degraded;
  const how = result.semantic ? (degraded ? `by words only: ${degraded}` : `by meaning (${result.semantic.model})`) : "by words";
  setStatus(degraded ? "degraded" : "done",
    `${totals.selected} of ${totals.items} items, ${formatNumber(result.chars)} of ${formatNumber(budget)} characters`
    + ` (about ${formatNumber(result.estimatedTokens)} tokens), ${how}.`
    + (degraded && result.semantic.message ? ` ${result.semantic.message}` : ""));
  byTestId("recall-status").dataset.degraded = degraded ?? "";
  replaceChildren(byTestId("recall-selected"), result.selected.map(selectedItem));
  replaceChildren(byTestId("recall-omitted"), omittedGroups(result.omitted));
  showText(byTestId("recall-omitted-count"), String(result.omitted.length));
  byTestId("recall-selected-empty").hidden = result.selected.length > 0;
  byTestId("recall-results").hidden = false;
}

/** Connect the panel's controls. */
export function initRecallPanel() {
  const panelForm = byTestId("recall-form");
  panelForm.addEventListener("submit", (event) => {
    event.preventDefault();
    scheduleRecall(0);
  });
  byTestId("recall-question").addEventListener("input", () => scheduleRecall());
  byTestId("recall-budget").addEventListener("input", () => scheduleRecall());
  for (const radio of panelForm.querySelectorAll("input[name=recall-mode]")) {
    radio.addEventListener("change", () => scheduleRecall(0));
  }
  byTestId("recall-panel").addEventListener("toggle", () => scheduleRecall(0));
}
