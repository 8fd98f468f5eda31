// Rendering of the side panels and the meter from engine results. Every
// piece of memory text goes in through text nodes (see dom.js).

import { el, byTestId, replaceChildren, formatNumber, formatDelta, formatTime } from "./dom.js";

const SEVERITY_LABEL = { error: "Error", warning: "Warning", info: "Info" };
const LEVEL_LABEL = {
  ok: "within limits",
  soft: "over the soft limit: consolidate soon",
  hard: "over the hard limit: cannot be saved",
};

/** The usage meter: code points (the engine's count), bytes, and the level. */
export function renderUsage(usage) {
  const meter = byTestId("usage");
  meter.dataset.level = usage.level;
  byTestId("usage-chars").textContent = formatNumber(usage.chars);
  byTestId("usage-hard").textContent = formatNumber(usage.hard);
  byTestId("usage-soft").textContent = formatNumber(usage.soft);
  byTestId("usage-bytes").textContent = formatNumber(usage.utf8Bytes);
  byTestId("usage-state").textContent = LEVEL_LABEL[usage.level] ?? usage.level;
  const hard = Math.max(usage.hard, 1);
  byTestId("usage-fill").style.width = `${Math.min(100, (usage.chars / hard) * 100)}%`;
  byTestId("usage-soft-mark").style.left = `${Math.min(100, (usage.soft / hard) * 100)}%`;
}

function where(d) {
  if (!d.range) return "whole document";
  return `line ${d.range.start.line}, col ${d.range.start.column}`;
}

/**
 * The problem list beside the editor. Each item is a button; activating it
 * calls `onPick(diagnostic)`.
 */
export function renderProblems(diagnostics, onPick) {
  const list = byTestId("problems");
  const items = diagnostics.map((d) => el("li", { class: `problem ${d.severity}` },
    el("button", {
      type: "button",
      "data-testid": "problem",
      "data-code": d.code,
      "data-severity": d.severity,
      "data-line": d.range ? d.range.start.line : "",
      onClick: () => onPick(d),
    },
    el("span", { class: "sev", text: SEVERITY_LABEL[d.severity] ?? d.severity }),
    el("span", { class: "where", text: where(d) }),
    el("span", { class: "msg", "data-testid": "problem-message", text: d.message }),
    d.help ? el("span", { class: "help", text: d.help }) : null,
    el("code", { class: "code", text: d.code }))));
  replaceChildren(list, items);
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
export function renderHistory(entries, currentRevision, { onView, onRevert }) {
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
