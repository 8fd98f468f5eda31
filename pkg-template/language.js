// Which embedder a text needs: MiniLM and the static table know English
// (its WordPiece vocabulary is Latin letters); a text whose letters are
// mostly in another script (Chinese, Japanese, Korean, Cyrillic, Arabic…)
// needs a multilingual model (docs/API.md, "Embedders: multilingual-e5-small").

const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;

/** Whether fewer than half of `text`'s letters are Latin (false without letters). */
export function mostlyNotLatin(text) {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters > 0 && (text.match(LATIN)?.length ?? 0) * 2 < letters;
}

/**
 * `multilingual` when it is given and the memory or the query is mostly not
 * in Latin letters, else `embedder`.
 */
export function chooseEmbedder(text, query, embedder, multilingual) {
  if (multilingual === undefined || multilingual === null) return embedder;
  return mostlyNotLatin(text) || mostlyNotLatin(query) ? multilingual : embedder;
}
