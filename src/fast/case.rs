//! Case folding: lower case (Unicode's full mapping) and NFKC then lower
//! case, as the standard library and the `unicode-normalization` crate fold.
//! Natively those tables fold; in WebAssembly, where they would be a large
//! share of the module, the JavaScript host's (`normalize` and
//! `toLowerCase`), installed by the boundary. Either way, the usual text of a memory
//! (ASCII, Latin-1, CJK, emoji, dashes) is folded here without a table.

#[cfg(not(target_arch = "wasm32"))]
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// NFKC, then lower case: how headings (and recall's words) are folded.
/// ASCII is already in NFKC; skipping the fold keeps validation of
/// documents with very many headings cheap.
pub(crate) fn to_nfkc_lowercase(text: &str) -> String {
    folded(text, host_to_nfkc_lowercase)
}

/// `to_nfkc_lowercase` of each of `texts`. In WebAssembly every text that
/// is not ASCII and needs the tables (see `fold_without_tables`) is
/// folded by the host in one call for all of them, not one call each (a
/// call into the host costs more than a short fold): they cross
/// joined by line feeds, which neither NFKC nor lower-casing changes,
/// makes or combines with a neighbour (U+000A has no decomposition and
/// composes with nothing, and it ends a final sigma's context as the end of
/// a text does), so the folded text splits back at them. A text that holds
/// a line feed itself is folded alone.
pub fn to_nfkc_lowercase_each(texts: &[&str]) -> Vec<String> {
    let mut folded: Vec<String> = Vec::with_capacity(texts.len());
    // The texts left to the host, by their index.
    let mut pending: Vec<usize> = Vec::new();
    let mut joined = String::new();
    for (k, text) in texts.iter().enumerate() {
        let alone = text.is_ascii() || !cfg!(target_arch = "wasm32") || text.contains('\n');
        // Alone, or without the tables, or else by the host with the others.
        let done = if alone {
            Some(to_nfkc_lowercase(text))
        } else {
            fold_without_tables(text)
        };
        if let Some(done) = done {
            folded.push(done);
        } else {
            joined.push_str(text);
            joined.push('\n');
            pending.push(k);
            folded.push(String::new());
        }
    }
    if !pending.is_empty() {
        let all = host_to_nfkc_lowercase(&joined);
        let parts: Vec<&str> = all.split_terminator('\n').collect();
        // A host that split the texts otherwise (none is expected to) leaves
        // each to be folded alone.
        let mut parts = (parts.len() == pending.len()).then(|| parts.into_iter());
        for k in pending {
            folded[k] = match parts.as_mut().and_then(Iterator::next) {
                Some(part) => part.to_owned(),
                None => host_to_nfkc_lowercase(texts[k]),
            };
        }
    }
    folded
}

/// Lower case (Unicode's full mapping, final sigma included).
pub fn to_lowercase(text: &str) -> String {
    folded(text, host_to_lowercase)
}

/// `text` folded: ASCII by itself, then [`fold_without_tables`], and only
/// then by `host` (the tables natively, the host in WebAssembly), which
/// both folds share.
fn folded(text: &str, host: fn(&str) -> String) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        fold_without_tables(text).unwrap_or_else(|| host(text))
    }
}

/// The lower case of a text, which is also that of its NFKC form, when it
/// is made only of characters that need no table for either: Latin-1 (`A`–`Z`
/// and `À`–`Þ` but `×` move up by 32) and characters of blocks with no case
/// (general punctuation, CJK and kana, Hangul syllables, emoji) that NFKC
/// keeps as they are and that combine with or move past no neighbour (see
/// [`NO_TABLE`]). `None` when the text holds any other character. In
/// WebAssembly, where both folds are otherwise the host's, this keeps the
/// usual text of a memory (accents, Japanese, Korean, emoji, dashes) from
/// crossing the boundary; tests compare it with the full mappings for
/// every character.
fn fold_without_tables(text: &str) -> Option<String> {
    let mut folded = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        // A run of ASCII is copied whole and lowered with the rest at the
        // end, without a look at the table.
        let ascii = rest.bytes().take_while(u8::is_ascii).count();
        folded.push_str(&rest[..ascii]);
        let mut chars = rest[ascii..].chars();
        let Some(c) = chars.next() else { break };
        let c = match c {
            'À'..='Ö' | 'Ø'..='Þ' => char::from_u32(u32::from(c) + 32)?,
            _ if in_no_table(c) => c,
            _ => return None,
        };
        folded.push(c);
        rest = chars.as_str();
    }
    folded.make_ascii_lowercase();
    Some(folded)
}

/// Whether [`NO_TABLE`] holds `c`.
fn in_no_table(c: char) -> bool {
    let at = NO_TABLE.partition_point(|&(_, last)| last < c);
    NO_TABLE.get(at).is_some_and(|&(first, _)| first <= c)
}

/// Whether a character that is not ASCII is known without a table to be
/// its own lower case (and NFKC form), and not white space: those
/// [`fold_without_tables`] keeps as they are, but Latin-1's capitals and C1
/// controls.
pub(crate) fn folds_to_itself(c: char) -> bool {
    !matches!(c, '\0'..='\u{9F}' | 'À'..='Ö' | 'Ø'..='Þ') && in_no_table(c)
}

/// The characters [`fold_without_tables`] keeps as they are, as sorted
/// ranges: not Latin-1's compatibility characters (no-break space, `ª`,
/// `²`, `µ`, `½`, ...), the dashes, quotes and bullets of general
/// punctuation but not its spaces or `…`, kana and CJK punctuation but not
/// the ideographic space, the tone marks or the voicing marks, CJK, Hangul
/// syllables and the emoji blocks.
const NO_TABLE: [(char, char); 23] = [
    ('\0', '\u{9F}'),
    ('\u{A1}', '\u{A7}'),
    ('\u{A9}', '\u{A9}'),
    ('\u{AB}', '\u{AE}'),
    ('\u{B0}', '\u{B1}'),
    ('\u{B6}', '\u{B7}'),
    ('\u{BB}', '\u{BB}'),
    ('\u{BF}', '\u{FF}'),
    ('\u{2010}', '\u{2010}'),
    ('\u{2012}', '\u{2016}'),
    ('\u{2018}', '\u{2023}'),
    ('\u{3001}', '\u{3029}'),
    ('\u{3030}', '\u{3035}'),
    ('\u{3037}', '\u{3037}'),
    ('\u{303B}', '\u{3098}'),
    ('\u{309D}', '\u{309E}'),
    ('\u{30A0}', '\u{30FE}'),
    ('\u{3400}', '\u{9FFF}'),
    ('\u{AC00}', '\u{D7A3}'),
    ('\u{1F300}', '\u{1F64F}'),
    ('\u{1F680}', '\u{1F6FF}'),
    ('\u{1F900}', '\u{1F9FF}'),
    ('\u{1FA70}', '\u{1FAFF}'),
];

/// Native builds carry the Unicode tables (the `unicode-normalization`
/// crate, and the standard library's case tables).
/// A text the quick check finds in NFKC already (most are: precomposed
/// accents, CJK, emoji) is only lower-cased.
#[cfg(not(target_arch = "wasm32"))]
fn host_to_nfkc_lowercase(text: &str) -> String {
    if is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        text.to_lowercase()
    } else {
        text.nfkc().collect::<String>().to_lowercase()
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn host_to_lowercase(text: &str) -> String {
    text.to_lowercase()
}

/// In WebAssembly the NFKC and case tables would be a large share of the
/// module (BENCHMARKS.md), and every JavaScript host already has them
/// (`String.prototype.normalize` and `toLowerCase`), so the boundary
/// installs the host's folds when the module starts. Until then (no
/// boundary at all), only ASCII letters are lower-cased and nothing is
/// folded.
#[cfg(target_arch = "wasm32")]
fn host_to_nfkc_lowercase(text: &str) -> String {
    match HOST_FOLDS.get() {
        Some(folds) => (folds.nfkc_lower)(text),
        None => text.to_ascii_lowercase(),
    }
}

#[cfg(target_arch = "wasm32")]
fn host_to_lowercase(text: &str) -> String {
    match HOST_FOLDS.get() {
        Some(folds) => (folds.lower)(text),
        None => text.to_ascii_lowercase(),
    }
}

/// The host's folds (WebAssembly only).
#[cfg(target_arch = "wasm32")]
pub struct HostFolds {
    /// NFKC, then lower case.
    pub nfkc_lower: fn(&str) -> String,
    /// Lower case.
    pub lower: fn(&str) -> String,
}

#[cfg(target_arch = "wasm32")]
static HOST_FOLDS: std::sync::OnceLock<HostFolds> = std::sync::OnceLock::new();

/// Install the host's folds (WebAssembly only; the boundary calls this once
/// at start). Later calls are ignored.
#[cfg(target_arch = "wasm32")]
pub fn install_host_folds(folds: HostFolds) {
    let _ = HOST_FOLDS.set(folds);
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{fold_without_tables, folds_to_itself, host_to_nfkc_lowercase, NO_TABLE};
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn a_character_that_folds_to_itself_does() {
        let mut count = 0;
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            if folds_to_itself(c) {
                let text = c.to_string();
                let at = format!("U+{:04X}", u32::from(c));
                assert!(
                    !c.is_ascii() && !c.is_whitespace() && !c.is_control(),
                    "{at}"
                );
                assert_eq!(text.to_lowercase(), text, "{at}");
                assert_eq!(fold_without_tables(&text).as_deref(), Some(&*text), "{at}");
                count += 1;
            }
        }
        // What the fold answers for (below) but ASCII, the C1 controls and
        // Latin-1's 30 capitals.
        assert_eq!(
            count,
            242 - 128 - 32 - 30 + 18 + 239 + 27_648 + 11_172 + 1_376
        );
    }

    #[test]
    fn folding_without_tables_is_both_full_mappings_where_it_answers() {
        let nfkc = |text: &str| text.nfkc().collect::<String>().to_lowercase();
        let mut answered = 0;
        for c in (0..=0x2_FFFF).filter_map(char::from_u32) {
            let text = format!("x{c}É");
            if let Some(folded) = fold_without_tables(&text) {
                let at = format!("U+{:04X}", u32::from(c));
                assert_eq!(folded, text.to_lowercase(), "{at}");
                assert_eq!(folded, nfkc(&text), "{at}");
                answered += 1;
            }
        }
        // Latin-1, punctuation, kana and CJK symbols, CJK, Hangul, emoji.
        assert_eq!(answered, 242 + 18 + 239 + 27_648 + 11_172 + 1_376);
        assert!(
            NO_TABLE.windows(2).all(|w| w[0].1 < w[1].0),
            "sorted, apart"
        );
        // Neighbours: every pair of Latin-1 and kana characters (where
        // NFKC could combine or reorder two), and a few of the others.
        let some: Vec<char> = (0x80..=0xFF)
            .chain(0x3000..=0x30FF)
            .chain([0x4E00, 0x9FFF, 0xAC00, 0xD7A3, 0x1F600, 0x2014])
            .filter_map(char::from_u32)
            .collect();
        for a in &some {
            for b in &some {
                let text = format!("{a}{b}");
                if let Some(folded) = fold_without_tables(&text) {
                    assert_eq!(folded, nfkc(&text), "{text:?}");
                }
            }
        }
        assert_eq!(fold_without_tables("ΣΑ"), None, "Greek is the host's");
        assert_eq!(fold_without_tables("İ"), None);
        assert_eq!(fold_without_tables("\u{3000}"), None);
        assert_eq!(fold_without_tables("か\u{3099}"), None);
    }

    #[test]
    fn the_quick_check_folds_as_the_whole_normalization_does() {
        let pieces = [
            "a",
            "Σ",
            "é",
            "e\u{301}",
            "\u{301}",
            "Ｐ",
            "ﬁ",
            "\u{1100}",
            "\u{1161}",
            "\u{d55c}",
            "İ",
            "ß",
            "ǅ",
            "記",
            "😀",
            "Å",
            "\u{212b}",
            "\u{2460}",
            "\u{345}",
            " ",
            "x",
            "\u{fb01}",
            "½",
            "Ω",
            "\u{2126}",
            "\u{1e9b}\u{323}",
        ];
        // Every sequence of up to three pieces.
        let mut texts = vec![String::new()];
        for _ in 0..3 {
            texts = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            for text in &texts {
                let whole = text.nfkc().collect::<String>().to_lowercase();
                assert_eq!(host_to_nfkc_lowercase(text), whole, "{text:?}");
            }
        }
    }
}
