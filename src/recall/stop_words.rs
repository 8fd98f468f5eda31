//! The English words that never make a match: articles, pronouns,
//! auxiliaries, prepositions, conjunctions and question words. A query
//! about something a memory does not hold shares such words with nearly
//! every item ("what is the …"), and BM25's inverse document frequency
//! only makes them weigh little, never nothing. They are dropped from the
//! query before matching; the items keep them (they count in an item's
//! length). English only, as recall's words are (docs/FORMAT.md §12).

/// The stop words, sorted (a test checks it) for a binary search.
const STOP_WORDS: [&str; 126] = [
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "because", "been", "before", "being", "both", "but", "by", "can", "could", "d", "did",
    "do", "does", "doesn", "doing", "don", "done", "each", "for", "from", "had", "has", "have",
    "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is",
    "isn", "it", "its", "just", "let", "ll", "m", "me", "might", "more", "most", "must", "my",
    "no", "nor", "not", "of", "on", "once", "only", "or", "other", "our", "ours", "out", "over",
    "re", "s", "same", "shall", "she", "should", "so", "some", "such", "t", "than", "that", "the",
    "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to",
    "too", "under", "until", "up", "us", "ve", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "yes",
    "you", "your", "yours",
];

/// Whether `word` (folded to lower case) is a stop word.
pub(crate) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::{is_stop_word, STOP_WORDS};

    #[test]
    fn the_list_is_sorted_and_found() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "sorted, no repeats"
        );
        assert!(STOP_WORDS.iter().all(|w| is_stop_word(w)));
        assert!(!is_stop_word("postgres") && !is_stop_word("database"));
    }
}
