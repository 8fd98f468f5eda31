//! The words of an item or a query, as recall compares them: Unicode word
//! segmentation (UAX #29), then the NFKC folding that headings use and
//! lower-casing, so `Ｐｏｓｔｇｒｅｓ`, `POSTGRES` and `postgres` are one word.
//! There is no stemming. Segments without a letter or digit (punctuation,
//! emoji) are not words.

use unicode_segmentation::UnicodeSegmentation;

use crate::heading::fold_lower;

/// The folded words of `text`, in order, repeats kept.
pub(crate) fn words(text: &str) -> Vec<String> {
    words_of_folded(&fold_lower(text))
        .map(str::to_owned)
        .collect()
}

/// The words of a text that [`fold_lower`] already folded, borrowed from
/// it: [`words`] without a string per word, for the many items of a memory.
pub(crate) fn words_of_folded(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .unicode_words()
        .filter(|w| w.chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn segments_folds_and_lowercases() {
        assert_eq!(
            words("We moved to Postgres (v16), not MySQL!"),
            ["we", "moved", "to", "postgres", "v16", "not", "mysql"]
        );
        assert_eq!(words("Ｐｏｓｔｇｒｅｓ 🐘 — ok"), ["postgres", "ok"]);
        assert_eq!(words("Zürich's café"), ["zürich's", "café"]);
        assert_eq!(words(""), Vec::<String>::new());
    }
}
