// Compaction: shrink an over-limit memory with the engine's `compact`
// (duplicates first, then the oldest, least important entries). The result
// only goes into the editor: the person reviews and saves it, and the text
// before stays on the page.

import { state } from "./session.js";
import { renderOutcome } from "./views.js";
import { keepText } from "./status.js";

export function compactToSoftLimit() {
  const { editor } = state;
  const checked = editor.checked();
  if (!checked) return;
  const text = editor.getText();
  const result = state.engine.compact(text, { scope: state.ref?.scope ?? "user", target: checked.report.usage.soft });
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
