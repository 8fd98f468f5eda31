//! Which embedder a text needs, as the package's `hybridRecall` decides
//! (pkg-template/language.js, whose rule this is; test-js/cli.test.mjs
//! checks that both front ends choose as it does): `MiniLM` and the static
//! table know English (their `WordPiece` vocabulary is Latin letters); a text
//! whose letters are mostly in another script (Chinese, Japanese, Korean,
//! Cyrillic, Arabic…) needs the multilingual model.

use std::sync::LazyLock;

use regex::Regex;

static LETTER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\p{L}").expect("a valid pattern"));
static LATIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\p{Script=Latin}").expect("a valid pattern"));

/// Whether fewer than half of `text`'s letters are Latin (false without
/// letters).
pub fn mostly_not_latin(text: &str) -> bool {
    let letters = LETTER.find_iter(text).count();
    letters > 0 && LATIN.find_iter(text).count() * 2 < letters
}

#[cfg(test)]
mod tests {
    use super::mostly_not_latin;

    #[test]
    fn by_the_share_of_latin_letters() {
        assert!(!mostly_not_latin("Which database do we use?"));
        assert!(mostly_not_latin("我们用哪个数据库？"));
        assert!(mostly_not_latin("Какую базу данных мы используем?"));
        assert!(!mostly_not_latin("2025-03-01 — 42 !"), "no letters");
        assert!(
            !mostly_not_latin("PostgreSQL 数据库"),
            "as many Latin letters as not"
        );
    }
}
