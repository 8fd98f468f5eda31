// The size of a recall's answer (docs/HUB.md, "Recall and lifecycle"): it
// grows with what is recalled, not with the memory. An omitted item is
// answered by its place and why it was left out, `{section, date, score,
// reason, range}`; its text only with `?omittedText=true`, and then at most
// OMITTED_TEXT_CHARS code points of omitted text in all (the items past
// them are listed without it).
import { flagOf } from "./query.js";

/** Code points of omitted items' text one answer may carry with ?omittedText=true. */
export const OMITTED_TEXT_CHARS = 16_000;

const codePoints = (text) => [...text].length;

/**
 * The omitted items as answered (`extra`, such as the memory, kept on each).
 * @param {Record<string, string>} params the request's query parameters
 * @param {object[]} omitted the engine's
 */
export function omittedAnswer(params, omitted) {
  let room = flagOf(params.omittedText, "omittedText") ? OMITTED_TEXT_CHARS : 0;
  return omitted.map(({ text, why: _why, ...item }) => {
    const size = room > 0 ? codePoints(text) : Infinity;
    if (size > room) return item;
    room -= size;
    return { ...item, text };
  });
}
