//! Word boundaries (UAX #29) of a text that is not all ASCII, for recall's
//! words ([`super::tokenize`]): the classes of the characters
//! ([`class_of`], from the generated [`table`]) and the segments between
//! the boundaries ([`Bounds`]). The segments are the ones the
//! `unicode-segmentation` crate finds (`split_word_bounds`), which the tests
//! compare them with (below); the module carries a table of runs of
//! characters (scripts/word-breaks.mjs) rather than that crate's tables and
//! state machine.

mod bounds;
mod table;

pub(crate) use bounds::Bounds;
use table::Class;

/// The class of `c`, and whether it is `Extended_Pictographic`.
pub(crate) fn class_of(c: char) -> (Class, bool) {
    let value = RUNS.value_of(c as u32);
    let class = table::CLASSES
        .get(usize::from(value & (table::PICTOGRAPHIC - 1)))
        .copied()
        .unwrap_or(Class::Any);
    (class, value & table::PICTOGRAPHIC != 0)
}

/// The table's runs as the lookup searches them, made from the generated
/// distances and values the first time a character is looked up.
static RUNS: std::sync::LazyLock<Runs> = std::sync::LazyLock::new(Runs::new);

/// The start of every run, `start << 8 | value`, and for each block of 32
/// characters below [`Runs::INDEXED`] the run its first character is in.
struct Runs {
    starts: Vec<u32>,
    blocks: Vec<u16>,
}

impl Runs {
    /// The blocks are indexed up to here: the letters of every script but
    /// CJK's extensions, and the emoji.
    const INDEXED: u32 = 0x2_0000;

    fn new() -> Self {
        let mut start = 0;
        let starts: Vec<u32> = table::DISTANCES
            .iter()
            .zip(table::VALUES)
            .map(|(&distance, value)| {
                start += u32::from(distance);
                start << 8 | u32::from(value)
            })
            .collect();
        let mut run = 0;
        let blocks = (0..Self::INDEXED)
            .step_by(32)
            .map(|first| {
                while starts.get(run + 1).is_some_and(|&next| next >> 8 <= first) {
                    run += 1;
                }
                u16::try_from(run).unwrap_or(u16::MAX)
            })
            .collect();
        Self { starts, blocks }
    }

    /// The value of the run `c` is in.
    fn value_of(&self, c: u32) -> u8 {
        let block = (c / 32) as usize;
        let first = self.blocks.get(block).map_or(0, |&run| usize::from(run));
        let last = self
            .blocks
            .get(block + 1)
            .map_or(self.starts.len(), |&run| usize::from(run) + 1);
        let runs = self.starts.get(first..last).unwrap_or_default();
        // The last run that starts at or before `c` (the first of the block's
        // runs does).
        let at = runs.partition_point(|&run| run >> 8 <= c);
        runs.get(at.saturating_sub(1))
            .map_or(0, |&run| run.to_le_bytes()[0])
    }
}

/// Calls `check` with every text of up to `longest` of `chars` (the empty
/// one too), for the tests of the segmentation and of recall's words.
#[cfg(test)]
pub(crate) fn every_text(chars: &[char], longest: u32, mut check: impl FnMut(&str)) {
    let mut text = String::new();
    for length in 0..=longest {
        for mut n in 0..chars.len().pow(length) {
            text.clear();
            for _ in 0..length {
                text.push(chars[n % chars.len()]);
                n /= chars.len();
            }
            check(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use unicode_segmentation::UnicodeSegmentation;

    use super::table::UNICODE_VERSION;
    use super::{every_text, Bounds};

    fn same_as_the_reference(text: &str) {
        let ours: Vec<&str> = Bounds::new(text).collect();
        let reference: Vec<&str> = text.split_word_bounds().collect();
        assert_eq!(ours, reference, "{text:?}");
    }

    #[test]
    fn the_table_is_of_the_reference_unicode_version() {
        assert_eq!(UNICODE_VERSION, unicode_segmentation::UNICODE_VERSION);
    }

    /// One character of each class, and `Extended_Pictographic` ones (of
    /// the classes Any and ALetter): every text of up to four of them is
    /// segmented as the reference segments it. The segmentation sees only
    /// the classes, so this is each rule and their orders.
    #[test]
    fn every_short_text_of_every_class_is_segmented_as_the_reference() {
        const ALPHABET: [char; 22] = [
            '!', 'é', 'א', '٣', 'ア', '_', ':', ',', '.', '\'', '"', '\u{308}', '\u{ad}',
            '\u{200d}', '🇦', ' ', '\r', '\n', '\u{b}', '😀', 'ℹ', '€',
        ];
        every_text(&ALPHABET, 4, same_as_the_reference);
    }

    /// Every character in texts that tell its class apart from every other
    /// class and show whether it is `Extended_Pictographic`: every character
    /// of planes 0 to 3 and 14, where every assigned one is, and every 97th
    /// of the others.
    #[test]
    fn every_character_is_classed_as_the_reference_classes_it() {
        let assigned = (0..0x4_0000).chain(0xE_0000..0xE_1000);
        let others = (0x4_0000..0xE_0000).chain(0xE_1000..0x11_0000).step_by(97);
        let mut text = String::new();
        for c in assigned.chain(others).filter_map(char::from_u32) {
            for (before, after) in [
                ("é", "é"),
                ("1", "1"),
                ("א", ""),
                ("א", "א"),
                ("ア", ""),
                ("🇦", ""),
                ("!\u{200d}", ""),
                ("", "😀"),
                ("", "\n"),
                ("", "\u{308}"),
                ("", "'"),
                ("", ",1"),
            ] {
                text.clear();
                text.push_str(before);
                text.push(c);
                text.push_str(after);
                same_as_the_reference(&text);
            }
            text.clear();
            text.extend([c, c]);
            same_as_the_reference(&text);
        }
    }
}
