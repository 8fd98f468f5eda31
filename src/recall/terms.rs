//! Recall's terms: what a word of the query matches in an item
//! (docs/FORMAT.md §12, "Words"). A word (already folded by
//! [`super::tokenize`]) is split into its parts at `_` and at a `.` or `:`
//! between letters (`max_connections`, `grafana.acme.internal`), and each
//! part is reduced to its English Snowball stem (crates.io `rust-stemmers`),
//! so `release`, `releases` and `released` are one term. A query part also
//! matches:
//!
//! - an item part it begins, when it has at least [`PREFIX_LEAST`]
//!   characters (`postgres` in `PostgreSQL`, `health` in `healthcheck`);
//! - as a numeronym (a letter, a count, a letter: `k8s`, `i18n`), an item
//!   part of letters alone with those ends and that many letters between
//!   (`kubernetes`, `internationalization`).
//!
//! Stop words never make a match (nor do parts that are stop words).

use std::borrow::Cow;

use rust_stemmers::{Algorithm, Stemmer};

use super::stop_words::is_stop_word;
use crate::fast::sort_by;

/// A stem, borrowed from its word when the stemmer left it whole.
pub(crate) type Term<'a> = Cow<'a, str>;

/// The fewest characters of a query part that match the item parts it
/// begins: four-letter words begin too many others (`port`, `portal`).
pub const PREFIX_LEAST: usize = 5;

/// The parts of a folded word: split at `_`, and at a `.` or `:` between
/// two letters; parts without a letter or digit are dropped.
pub(crate) fn parts(word: &str) -> Parts<'_> {
    Parts { word, from: 0 }
}

/// The iterator of [`parts`].
pub(crate) struct Parts<'a> {
    word: &'a str,
    from: usize,
}

impl<'a> Iterator for Parts<'a> {
    type Item = &'a str;

    // One copy for every caller: recall inlines nearly everything into
    // one function, and each copy of this loop costs the module bytes.
    #[inline(never)]
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.word.as_bytes();
        let mut at = self.from;
        while at <= bytes.len() {
            let split = match bytes.get(at) {
                None | Some(b'_') => true,
                Some(b'.' | b':') => {
                    at > 0
                        && bytes[at - 1].is_ascii_alphabetic()
                        && bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic)
                }
                Some(_) => false,
            };
            if split {
                let part = &self.word[self.from..at];
                self.from = at + 1;
                if part.chars().any(char::is_alphanumeric) {
                    return Some(part);
                }
            }
            at += 1;
        }
        self.from = at;
        None
    }
}

/// The English Snowball stem of a folded part. Its first byte is always
/// the part's (the stemmer changes endings, and keeps a first `y`).
#[inline(never)]
pub(crate) fn stem(part: &str) -> Term<'_> {
    Stemmer::create(Algorithm::English).stem(part)
}

/// One term of the query.
struct QueryTerm<'q> {
    /// The stem.
    stem: Term<'q>,
    /// The part as the query wrote it (folded): what `why.terms` names.
    part: &'q str,
    /// As a numeronym: its first letter, the count between, its last.
    numeronym: Option<(char, usize, char)>,
}

/// The query's terms, and what an item's part matches among them.
pub(crate) struct Query<'q> {
    /// Each stem once, sorted by their parts.
    terms: Vec<QueryTerm<'q>>,
    /// Whether a part starting with this byte may match any term.
    first: [bool; 256],
}

impl<'q> Query<'q> {
    /// The terms of the query's folded words, stop words apart.
    pub(crate) fn new(words: &[&'q str]) -> Self {
        let mut terms: Vec<QueryTerm<'q>> = Vec::new();
        for word in words {
            for part in parts(word) {
                if !is_stop_word(part) {
                    terms.push(QueryTerm {
                        stem: stem(part),
                        part,
                        numeronym: numeronym(part),
                    });
                }
            }
        }
        // Each stem once (its first part in the sorted order), then in the
        // order of their parts, as `why.terms` lists them.
        sort_by(&mut terms, &|a, b| {
            a.stem.cmp(&b.stem).then(a.part.cmp(b.part))
        });
        terms.dedup_by(|a, b| a.stem == b.stem);
        sort_by(&mut terms, &|a, b| a.part.cmp(b.part));
        let mut first = [false; 256];
        for t in &terms {
            for s in [&*t.stem, t.part] {
                if let Some(&b) = s.as_bytes().first() {
                    first[usize::from(b)] = true;
                }
            }
        }
        Self { terms, first }
    }

    /// How many terms.
    pub(crate) fn len(&self) -> usize {
        self.terms.len()
    }

    /// The query's part of term `k`, as written (folded).
    pub(crate) fn part(&self, k: usize) -> &'q str {
        self.terms[k].part
    }

    /// Whether an item's part may match a term: every way of matching
    /// keeps the first byte, so most parts are passed over unstemmed.
    pub(crate) fn may_match(&self, part: &[u8]) -> bool {
        part.first().is_some_and(|&b| self.first[usize::from(b)])
    }

    /// Call `found` with each term (by index) that an item's part, whose
    /// stem is `stemmed`, matches: by its stem, as a prefix, as a numeronym.
    #[inline(never)]
    pub(crate) fn matches(&self, part: &str, stemmed: &str, found: &mut dyn FnMut(usize)) {
        for (k, t) in self.terms.iter().enumerate() {
            if t.stem == stemmed
                || (t.part.chars().count() >= PREFIX_LEAST
                    && part.len() > t.part.len()
                    && part.starts_with(t.part))
                || t.numeronym.is_some_and(|n| is_numeronym_of(n, part))
            {
                found(k);
            }
        }
    }
}

/// `k8s` as `('k', 8, 's')`: a letter, a count of 2 or more, a letter.
fn numeronym(part: &str) -> Option<(char, usize, char)> {
    let mut chars = part.chars();
    let first = chars.next().filter(char::is_ascii_lowercase)?;
    let last = chars.next_back().filter(char::is_ascii_lowercase)?;
    let count: usize = chars.as_str().parse().ok()?;
    (count >= 2 && chars.as_str().bytes().all(|b| b.is_ascii_digit()))
        .then_some((first, count, last))
}

fn is_numeronym_of((first, count, last): (char, usize, char), part: &str) -> bool {
    part.len() == count + 2
        && part.bytes().all(|b| b.is_ascii_lowercase())
        && part.starts_with(first)
        && part.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matched(query: &[&str], word: &str) -> Vec<&'static str> {
        let q = Query::new(query);
        let mut out = Vec::new();
        for part in parts(word).filter(|p| q.may_match(p.as_bytes())) {
            q.matches(part, &stem(part), &mut |k| out.push(q.part(k)));
        }
        out.into_iter()
            .map(|p| &*Box::leak(p.to_owned().into_boxed_str()))
            .collect()
    }

    #[test]
    fn parts_split_identifiers() {
        let p = |w: &'static str| parts(w).collect::<Vec<_>>();
        assert_eq!(p("max_connections"), ["max", "connections"]);
        assert_eq!(p("grafana.acme.internal"), ["grafana", "acme", "internal"]);
        assert_eq!(p("v1.2"), ["v1.2"]);
        assert_eq!(p("zürich's"), ["zürich's"]);
        assert_eq!(p("__init__"), ["init"]);
    }

    #[test]
    fn inflections_identifiers_and_numeronyms_match() {
        assert_eq!(matched(&["release"], "releases"), ["release"]);
        assert_eq!(matched(&["rollbacks"], "rollback"), ["rollbacks"]);
        assert_eq!(matched(&["postgres"], "postgresql"), ["postgres"]);
        assert_eq!(matched(&["k8s"], "kubernetes"), ["k8s"]);
        assert_eq!(
            matched(&["connections"], "max_connections"),
            ["connections"]
        );
        assert!(matched(&["port"], "portal").is_empty());
        assert!(matched(&["k8s"], "k8s_").len() == 1);
        assert!(matched(&["the"], "the").is_empty());
    }

    #[test]
    fn stems_keep_the_first_byte() {
        for w in [
            "dying",
            "skies",
            "yelling",
            "ugly",
            "ies",
            "generously",
            "caresses",
        ] {
            assert_eq!(stem(w).as_bytes()[0], w.as_bytes()[0], "{w}");
        }
    }
}
