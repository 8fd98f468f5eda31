//! Heading normalization (docs/FORMAT.md §7): the one key used whenever two
//! headings are compared (scope rules, diffs, duplicates, merges).

use std::borrow::Cow;

use crate::document::Document;
use crate::fast::{to_nfkc_lowercase, to_nfkc_lowercase_each};
use crate::grouping::first_equal;

/// Normalize a heading title for comparison.
///
/// Compatibility forms are folded first (NFKC), so a full-width
/// `Ｐｒｅｆｅｒｅｎｃｅｓ` cannot slip past the team-scope rule the way it did
/// in SurfSense; then the title is lower-cased, every alphanumeric character
/// is kept, each run of anything else becomes one space, and the result is
/// trimmed.
///
/// ```
/// assert_eq!(memdoc::normalize_heading("Personal_Notes!"), "personal notes");
/// assert_eq!(memdoc::normalize_heading("Team Goals (Q3)"), "team goals q3");
/// assert_eq!(memdoc::normalize_heading("Ｐｒｅｆｅｒｅｎｃｅｓ"), "preferences");
/// assert_eq!(memdoc::normalize_heading("🎯🚀"), "");
/// // Unicode's full lower-casing: a final sigma, a dotted capital I.
/// assert_eq!(memdoc::normalize_heading("ÉTÉ ΟΔΟΣ İstanbul"), "été οδος i stanbul");
/// ```
#[must_use]
pub fn normalize_heading(title: &str) -> String {
    alphanumeric_words(&to_nfkc_lowercase(title))
}

/// [`normalize_heading`] of `title`, which is `title` itself, borrowed, when
/// it is normalized already: ASCII lower-case letters and digits, in words
/// one space apart, as the default personal headings are, which team-scope
/// validation compares with at every call.
pub(crate) fn normalized(title: &str) -> Cow<'_, str> {
    let mut gap = true;
    let plain = title.bytes().all(|b| {
        let space = b == b' ';
        let ok = if space {
            !gap
        } else {
            b.is_ascii_lowercase() || b.is_ascii_digit()
        };
        gap = space;
        ok
    });
    if plain && !gap {
        Cow::Borrowed(title)
    } else {
        Cow::Owned(normalize_heading(title))
    }
}

/// [`normalize_heading`] of each of `titles`, folded together
/// ([`to_nfkc_lowercase_each`]).
pub(crate) fn normalize_each(titles: &[&str]) -> Vec<String> {
    to_nfkc_lowercase_each(titles)
        .iter()
        .map(|lower| alphanumeric_words(lower))
        .collect()
}

/// [`normalize_heading`] of the title of each section of `doc`, folded
/// together.
pub(crate) fn section_keys(doc: &Document<'_>) -> Vec<String> {
    normalize_each(&doc.titles())
}

/// The alphanumeric characters of a folded title, each run of anything else
/// one space between them.
fn alphanumeric_words(lower: &str) -> String {
    let mut out = String::with_capacity(lower.len());
    let mut gap = false;
    for c in lower.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// The key two section titles are told apart by (duplicate headings, the
/// sections a merge pairs up, the sections compaction joins), given the
/// title's [`normalize_heading`]: the normalized title, or, for a title made
/// only of symbols (which normalizes to nothing), its exact text.
fn section_key_of<'a>(title: &'a str, normalized: &'a str) -> &'a str {
    if normalized.is_empty() {
        title
    } else {
        normalized
    }
}

/// For each of `titles`, the index of the first with the same section key
/// ([`section_key_of`]), given each title's [`normalize_heading`].
pub(crate) fn first_same_key(titles: &[&str], normalized: &[String]) -> Vec<usize> {
    let keys: Vec<&str> = titles
        .iter()
        .zip(normalized)
        .map(|(title, n)| section_key_of(title, n))
        .collect();
    first_equal(keys.len(), &|i| keys[i].as_bytes())
}

/// [`first_same_key`] of titles not normalized yet.
pub(crate) fn first_same_title(titles: &[&str]) -> Vec<usize> {
    first_same_key(titles, &normalize_each(titles))
}

#[cfg(test)]
mod tests {
    use super::{normalize_heading, normalized, Cow};

    #[test]
    fn a_normalized_title_is_borrowed_and_every_title_normalized() {
        for title in crate::DEFAULT_FORBIDDEN_TEAM_HEADINGS {
            assert!(matches!(normalized(title), Cow::Borrowed(_)), "{title:?}");
        }
        let titles = [
            "",
            " ",
            "a",
            "a b",
            "a  b",
            " a",
            "a ",
            "A",
            "a-b",
            "a\tb",
            "é",
            "ａ",
            "a1 2b",
            "personal  notes",
            "Personal Notes",
            "x_y",
            "1",
            "1 ",
            "İ",
        ];
        for title in titles {
            assert_eq!(normalized(title), normalize_heading(title), "{title:?}");
        }
    }

    #[test]
    fn borrowed_or_not_it_is_the_normalized_title() {
        // Every title of up to five of these characters: the digits of `n`
        // in base 11, where 0 is none.
        let alphabet = ['a', 'c', '0', '9', ' ', 'A', '_', 'é', '\t', '-'];
        for n in 0..11_usize.pow(5) {
            let title: String = (0..5)
                .map(|k| n / 11_usize.pow(k) % 11)
                .filter(|&digit| digit > 0)
                .map(|digit| alphabet[digit - 1])
                .collect();
            assert_eq!(normalized(&title), normalize_heading(&title), "{title:?}");
        }
    }
}
