// Rendering of the side panels and the meter from engine results. Every
// piece of memory text goes in through text nodes (see dom.js).

import { el, byTestId, replaceChildren, showText, formatNumber, formatDelta, formatTime } from "./dom.js";

const SEVERITY_LABEL = { error: "Error", warning: "Warning", info: "Info" };
const LEVEL_LABEL = {
  ok: "within limits",
  soft: "over the soft limit: consolidate soon",
  hard: "over the hard limit: cannot be saved",
};

/** The usage the meter shows, and the width of its fill, so that a check writes only what changed. */
let shownUsage = {};
let shownFill = "";

/**
 * The usage meter: code points (the engine's count), bytes, and the level.
 * Only what changed is written: typing changes the counts, seldom the rest.
 */
export function renderUsage(usage) {
  const shown = shownUsage;
  shownUsage = usage;
  if (usage.level !== shown.level) {
    byTestId("usage").dataset.level = usage.level;
    showText(byTestId("usage-state"), LEVEL_LABEL[usage.level] ?? usage.level);
  }
  if (usage.chars !== shown.chars) showText(byTestId("usage-chars"), formatNumber(usage.chars));
  if (usage.hard !== shown.hard) showText(byTestId("usage-hard"), formatNumber(usage.hard));
  if (usage.soft !== shown.soft) showText(byTestId("usage-soft"), formatNumber(usage.soft));
  if (usage.utf8Bytes !== shown.utf8Bytes) showText(byTestId("usage-bytes"), formatNumber(usage.utf8Bytes));
  // Widths to a tenth of a percent (a fraction of a pixel): a keystroke
  // seldom moves the fill that far, and the style is left alone.
  const hard = Math.max(usage.hard, 1);
  const percent = (n) => `${Math.min(100, (n / hard) * 100).toFixed(1)}%`;
  const fill = percent(usage.chars);
  if (fill !== shownFill) byTestId("usage-fill").style.width = fill;
  shownFill = fill;
  if (usage.soft !== shown.soft || usage.hard !== shown.hard) {
    byTestId("usage-soft-mark").style.left = percent(usage.soft);
  }
}

function where(d) {
  if (!d.range) return "whole document";
  return `line ${d.range.start.line}, col ${d.range.start.column}`;
}

/** The order of the problem list: the most severe first. */
const SEVERITY_RANK = { error: 0, warning: 1, info: 2 };

/**
 * The problem list as shown: the shape of its items (each one's severity,
 * code and whether it has help), the items, and the diagnostics and
 * callback their buttons act on.
 */
const shownProblems = { shape: null, items: [], diagnostics: [], onPick: null };

function problemShape(diagnostics) {
  return JSON.stringify(diagnostics.map((d) => [d.severity, d.code, Boolean(d.help)]));
}

function problemItem(d, i) {
  return el("li", { class: `problem ${d.severity}` },
    el("button", {
      type: "button",
      "data-testid": "problem",
      "data-code": d.code,
      "data-severity": d.severity,
      "data-line": d.range ? d.range.start.line : "",
      onClick: () => shownProblems.onPick(shownProblems.diagnostics[i]),
    },
    el("span", { class: "sev", text: SEVERITY_LABEL[d.severity] ?? d.severity }),
    el("span", { class: "where", text: where(d) }),
    el("span", { class: "msg", "data-testid": "problem-message", text: d.message }),
    d.help ? el("span", { class: "help", text: d.help }) : null,
    el("code", { class: "code", text: d.code })));
}

/** Show `d` in an item made for a diagnostic of the same shape: its place, message and help. */
function updateProblemItem(item, d) {
  const button = item.firstChild;
  const line = d.range ? String(d.range.start.line) : "";
  if (button.dataset.line !== line) button.dataset.line = line;
  const [, place, message, help] = button.children;
  showText(place, where(d));
  showText(message, d.message);
  if (d.help) showText(help, d.help);
}

/**
 * The problem list beside the editor, errors first. Each item is a button; activating it
 * calls `onPick(diagnostic)` with the diagnostic of the latest check. Most
 * checks find the same problems as the last one, with other counts in their
 * messages or further down the text: the items are then updated in place,
 * not made again.
 */
export function renderProblems(found, onPick) {
  // Errors first (they block a save), then warnings, then the rest; in the
  // document's order within each.
  const diagnostics = [...found].sort((a, b) => (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3));
  shownProblems.diagnostics = diagnostics;
  shownProblems.onPick = onPick;
  const shape = problemShape(diagnostics);
  if (shape === shownProblems.shape) {
    diagnostics.forEach((d, i) => updateProblemItem(shownProblems.items[i], d));
    return;
  }
  shownProblems.shape = shape;
  shownProblems.items = diagnostics.map(problemItem);
  replaceChildren(byTestId("problems"), shownProblems.items);
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const count = byTestId("problem-count");
  count.textContent = String(diagnostics.length);
  count.dataset.errors = String(errors);
  byTestId("problems-empty").hidden = diagnostics.length > 0;
}

/**
 * The preview: canonical text, the prompt block, and the preamble lines that
 * a save would drop (sliced from the editor text by their UTF-16 ranges).
 */
export function renderPreview({ canonical, block, text, diagnostics }) {
  byTestId("preview-canonical").textContent = canonical === "" ? "(empty)" : canonical;
  byTestId("preview-block").textContent = block === "" ? "(nothing: an empty memory adds no block)" : block;
  const dropped = diagnostics
    .filter((d) => d.code === "structure/preamble-dropped" && d.range)
    .map((d) => text.slice(d.range.start.offset, d.range.end.offset));
  byTestId("preview-dropped").hidden = dropped.length === 0;
  byTestId("preview-dropped-lines").textContent = dropped.join("\n");
}

/** The revision table. `onView(n)` and `onRevert(n)` are called from its buttons. */
export function renderHistory(entries, currentRevision, { onView, onChanges, onRevert }) {
  const rows = entries.map((e) => el("tr", { "data-testid": "history-row", "data-revision": e.revision },
    el("td", { text: String(e.revision) }),
    el("td", {}, el("time", { datetime: e.at, text: formatTime(e.at) })),
    el("td", { text: e.actor ?? "—" }),
    el("td", {}, `${formatNumber(e.chars)} `, el("span", { class: "delta", text: `(${formatDelta(e.delta)})` })),
    el("td", { class: "codes" },
      e.codes.length ? e.codes.join(", ") : "—",
      // Entries the store compacted away on this save are archived in its audit entry.
      e.archived?.length ? el("details", { class: "archived", "data-testid": "history-archived" },
        el("summary", { text: `${e.archived.length} archived` }),
        el("ul", {}, e.archived.map((a) => el("li", { text: `${a.section}: ${a.date}: ${a.text}` })))) : null),
    el("td", { class: "row-actions" },
      el("button", {
        type: "button", "data-testid": "history-view", "aria-label": `View revision ${e.revision}`,
        onClick: () => onView(e.revision), text: "View",
      }),
      el("button", {
        type: "button", "data-testid": "history-changes", "aria-label": `Changes in revision ${e.revision}`,
        onClick: () => onChanges(e.revision), text: "Changes",
      }),
      el("button", {
        type: "button", "data-testid": "history-revert", "aria-label": `Revert to revision ${e.revision}`,
        disabled: e.revision === currentRevision, onClick: () => onRevert(e.revision), text: "Revert",
      }))));
  replaceChildren(byTestId("history-rows"), rows);
  byTestId("history").hidden = entries.length === 0;
  byTestId("history-empty").hidden = entries.length > 0;
}

/** A save outcome or failure, announced through the aria-live region. */
export function renderOutcome({ status, title, details = [] }) {
  const box = byTestId("save-outcome");
  box.dataset.status = status;
  // A sequence number tells "a new outcome" from "the same outcome again".
  box.dataset.seq = String(Number(box.dataset.seq ?? "0") + 1);
  replaceChildren(box,
    el("p", { class: "outcome-title", "data-testid": "save-outcome-title", text: title }),
    details.length ? el("ul", { class: "outcome-details" },
      details.map((line) => el("li", { "data-testid": "save-outcome-detail", text: line }))) : null);
}
