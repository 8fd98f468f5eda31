//! What a result repeats of its input: the stretches of a text computed from
//! a memory (its canonical form) that are the memory's own lines, so that the
//! boundary hands them back as slices of the input string and converts only
//! the rest (src/wasm/text/slices.rs). A memory with a line out of canonical form
//! here and there, such as one with entries in the legacy format, is then
//! converted only at those lines rather than whole.
//!
//! The stretches are found line by line, in order: a line of the result is
//! looked for among the next [`WINDOW`] lines of the input (its first line
//! among all of them, past a preamble), and a stretch that starts there goes
//! on for as long as the two texts are equal. The common end of the two is
//! one stretch too, and so is their common start when it is half of the
//! rest or the line search finds nothing (a store's record is one line, its
//! content first). Whatever is found, the pieces make exactly the result:
//! the search only decides how much of it is a slice. An ASCII input, which
//! the host converts several times as fast as other text (faster than it
//! slices and joins many pieces), is not searched: only its common start
//! and end with the result are slices.

use std::ops::Range;

/// How many lines of the input a line of the result is looked for among:
/// the canonical form drops or rewrites a line here and there, and a
/// bounded search keeps the cost linear when it rewrites every line (CRLF).
pub const WINDOW: usize = 8;

/// The shortest stretch worth a slice: a shorter one is converted with what
/// is around it (a slice and its join cost about what converting that many
/// bytes does).
pub const SHORTEST: usize = 64;

/// One piece of a result, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// A slice of the input string: UTF-16 units.
    Input(Range<u32>),
    /// Bytes of the result to convert.
    Result(Range<usize>),
}

/// The pieces that make `result` out of slices of the input `text` (whose
/// JavaScript string has `units` UTF-16 units) and converted bytes, or
/// `None` when less than half of it repeats the input: converting it whole
/// is cheaper then.
#[must_use]
pub fn pieces(text: &str, units: u32, result: &str) -> Option<Vec<Piece>> {
    let ascii = units as usize == text.len();
    let stretches = stretches(text, result, !ascii);
    let repeated: usize = stretches.iter().map(|s| s.len).sum();
    if repeated * 2 < result.len() || repeated == 0 {
        return None;
    }
    // The whole result one stretch (a canonical memory, or one with only a
    // preamble or trailing white space more): its end is counted back from
    // the input's, so that only what is left out is counted.
    if let [only] = stretches.as_slice() {
        if only.len == result.len() {
            let start = utf16_units(&text[..only.text], ascii);
            let end = units.saturating_sub(utf16_units(&text[only.text + only.len..], ascii));
            return Some(vec![Piece::Input(start..end)]);
        }
    }
    let mut out = Vec::with_capacity(2 * stretches.len() + 1);
    let (mut counted, mut at, mut written) = (0, 0, 0);
    for s in &stretches {
        if s.result > written {
            out.push(Piece::Result(written..s.result));
        }
        at += utf16_units(&text[counted..s.text], ascii);
        let len = utf16_units(&text[s.text..s.text + s.len], ascii);
        out.push(Piece::Input(at..at + len));
        at += len;
        counted = s.text + s.len;
        written = s.result + s.len;
    }
    if written < result.len() {
        out.push(Piece::Result(written..result.len()));
    }
    Some(out)
}

/// The UTF-16 units of `part`, a part of an input: its bytes when the whole
/// input is ASCII, so that an ASCII input is never counted.
#[must_use]
pub fn utf16_units(part: &str, ascii: bool) -> u32 {
    let n = if ascii {
        part.len()
    } else {
        memdoc::utf16_len(part)
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `len` bytes that `result` repeats: at `text` in the input and at
/// `result` in the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stretch {
    text: usize,
    result: usize,
    len: usize,
}

/// The stretches of at least [`SHORTEST`] bytes, in order in both texts:
/// the common start and end, and with `lines`, the lines between them.
fn stretches(text: &str, result: &str, lines: bool) -> Vec<Stretch> {
    // The common end first: a preamble or a difference near the start then
    // leaves the rest one stretch however far the lines moved.
    let tail = common_end(text, result);
    let (head_text, head_result) = (&text[..text.len() - tail], &result[..result.len() - tail]);
    // The common start: a result that is the input's first half or more (a
    // store's record, one line whose content comes first) is not searched
    // line by line, and one whose line search gives up keeps it when it is
    // a stretch (more than half new otherwise: converted whole).
    let head = common_start(head_text, head_result);
    let start = || {
        let start = Stretch {
            text: 0,
            result: 0,
            len: head,
        };
        if head >= SHORTEST {
            vec![start]
        } else {
            Vec::new()
        }
    };
    let mut found = if lines && head * 2 < head_result.len() {
        match line_stretches(head_text, head_result, result.len() / 2) {
            Some(found) if !found.is_empty() => found,
            None if head < SHORTEST => return Vec::new(),
            _ => start(),
        }
    } else {
        start()
    };
    if tail >= SHORTEST {
        found.push(Stretch {
            text: head_text.len(),
            result: head_result.len(),
            len: tail,
        });
    }
    // A stretch ended by the tail joins it.
    found.dedup_by(|next, last| {
        let joins = last.text + last.len == next.text && last.result + last.len == next.result;
        if joins {
            last.len += next.len;
        }
        joins
    });
    found
}

/// The stretches that start at a line of `result` found among the lines of
/// `text`, or `None` once more than `most_new` bytes of `result` are not
/// in one.
fn line_stretches(text: &str, result: &str, most_new: usize) -> Option<Vec<Stretch>> {
    let mut found = Vec::new();
    let (mut t, mut r, mut new) = (0, 0, 0);
    while r < result.len() {
        // Nothing repeated in the first eighth: the rest is not looked for
        // either. A text out of canonical form at every few lines (its
        // sections without the blank line between them) is then converted
        // whole after an eighth of the search, not half of it.
        if found.is_empty() && r > result.len() / 8 {
            return None;
        }
        let line = line_at(result, r);
        // The first line is looked for everywhere: a model's reply may open
        // with any number of lines before the memory.
        let window = if r == 0 { usize::MAX } else { WINDOW };
        let Some(start) = find_line(text, t, line, window) else {
            new += line.len();
            if new > most_new {
                return None;
            }
            r = (r + line.len() + 1).min(result.len());
            continue;
        };
        // At least the line, and its `\n` unless one of them ends there.
        let len = common_start(&text[start..], &result[r..]);
        if len >= SHORTEST {
            found.push(Stretch {
                text: start,
                result: r,
                len,
            });
        } else {
            new += len;
        }
        t = next_line(text, start + len);
        r = next_line(result, r + len.max(line.len() + 1));
    }
    Some(found)
}

/// The line of `text` that starts at `at`, without its `\n`.
fn line_at(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    rest.find('\n').map_or(rest, |end| &rest[..end])
}

/// The start of the line at `at` when `at` starts one, else of the next
/// line; the end of `text` when there is none.
fn next_line(text: &str, at: usize) -> usize {
    if at == 0 || at >= text.len() || text.as_bytes()[at - 1] == b'\n' {
        return at.min(text.len());
    }
    text[at..].find('\n').map_or(text.len(), |end| at + end + 1)
}

/// The start of the first line of `text` equal to `line`, among the
/// `window` lines from the one that starts at `from`. An empty line is only
/// the line at `from`: a blank line matches any other, and jumping to one
/// further on would skip the lines before it.
fn find_line(text: &str, from: usize, line: &str, window: usize) -> Option<usize> {
    let window = if line.is_empty() { 1 } else { window };
    let mut start = from;
    for _ in 0..window {
        if start > text.len() || (start == text.len() && !line.is_empty()) {
            return None;
        }
        let here = line_at(text, start);
        if here == line {
            return Some(start);
        }
        start += here.len() + 1;
    }
    None
}

/// How many bytes `one` and `other` have in common from their starts, cut back to
/// a character boundary.
fn common_start(one: &str, other: &str) -> usize {
    let (x, y) = (one.as_bytes(), other.as_bytes());
    let word =
        |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let mut n = 0;
    // Eight bytes at a time: the first that differs is the lowest set byte
    // of the two words' difference.
    while n + 8 <= x.len().min(y.len()) {
        let diff = word(x, n) ^ word(y, n);
        if diff != 0 {
            n += (diff.trailing_zeros() / 8) as usize;
            break;
        }
        n += 8;
    }
    n += equal(x[n..].iter().zip(&y[n..]));
    while !(one.is_char_boundary(n) && other.is_char_boundary(n)) {
        n -= 1;
    }
    n
}

/// How many bytes `one` and `other` have in common at their ends, cut back to a
/// character boundary.
fn common_end(one: &str, other: &str) -> usize {
    let (x, y) = (one.as_bytes(), other.as_bytes());
    let word = |s: &[u8], back: usize| {
        let end = s.len() - back;
        u64::from_le_bytes(s[end - 8..end].try_into().unwrap_or_default())
    };
    let mut n = 0;
    // Eight bytes at a time, from the end: the last byte is the highest.
    while n + 8 <= x.len().min(y.len()) {
        let diff = word(x, n) ^ word(y, n);
        if diff != 0 {
            n += (diff.leading_zeros() / 8) as usize;
            break;
        }
        n += 8;
    }
    n += equal(
        x[..x.len() - n]
            .iter()
            .rev()
            .zip(y[..y.len() - n].iter().rev()),
    );
    while !(one.is_char_boundary(one.len() - n) && other.is_char_boundary(other.len() - n)) {
        n -= 1;
    }
    n
}

/// How many of the pairs are equal, from the first on.
fn equal<'b>(pairs: impl Iterator<Item = (&'b u8, &'b u8)>) -> usize {
    pairs.take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result made from the pieces, as the boundary makes it: slices of
    /// the input by UTF-16 units, and converted bytes.
    fn assemble(text: &str, result: &str) -> Option<String> {
        let units: Vec<u16> = text.encode_utf16().collect();
        let pieces = pieces(text, u32::try_from(units.len()).unwrap(), result)?;
        Some(
            pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Input(r) => String::from_utf16(&units[r.start as usize..r.end as usize])
                        .expect("a slice is whole characters"),
                    Piece::Result(r) => result[r.clone()].to_owned(),
                })
                .collect(),
        )
    }

    fn slices(text: &str, result: &str) -> usize {
        pieces(text, units(text), result).map_or(0, |p| {
            p.iter().filter(|p| matches!(p, Piece::Input(_))).count()
        })
    }

    fn units(text: &str) -> u32 {
        u32::try_from(text.encode_utf16().count()).unwrap()
    }

    #[test]
    fn a_canonical_memory_is_one_slice_of_itself() {
        let text =
            "## Notes\n- 2025-01-01: café 記憶 😀 and more words to pass the shortest stretch";
        let whole = Some(vec![Piece::Input(0..units(text))]);
        assert_eq!(pieces(text, units(text), text), whole);
        let trailing = format!("{text}\n\n  \n");
        assert_eq!(pieces(&trailing, units(&trailing), text), whole);
    }

    #[test]
    fn a_preamble_of_any_length_is_left_out() {
        let body = "## Notes\n- 2025-01-01: a memory that is long enough to be worth a slice of it\n- 2025-01-02: 記憶";
        let text = format!("{}{body}", "Sure, here it is:\n".repeat(50));
        assert_eq!(assemble(&text, body).as_deref(), Some(body));
        assert_eq!(slices(&text, body), 1);
    }

    #[test]
    fn rewritten_lines_are_converted_and_the_rest_sliced() {
        let line = |i: usize| {
            format!(
                "- 2025-01-{:02}: the entry number {i} of this section, with é and 😀",
                i % 28 + 1
            )
        };
        let mut text = vec!["## Log".to_owned()];
        let mut result = text.clone();
        for i in 0..200 {
            if i % 20 == 7 {
                text.push(format!("- ({}) [fact] legacy {i}", "2025-02-01"));
                result.push(format!("- 2025-02-01: legacy {i}"));
            } else {
                text.push(line(i));
                result.push(line(i));
            }
        }
        let (text, result) = (text.join("\n"), result.join("\n"));
        assert_eq!(assemble(&text, &result).as_deref(), Some(result.as_str()));
        assert_eq!(slices(&text, &result), 11);
        // In ASCII, the common start and end only: here less than half.
        let ascii = |s: &str| s.replace(['é', '😀'], "e");
        let (text, result) = (ascii(&text), ascii(&result));
        assert_eq!(pieces(&text, units(&text), &result), None);
    }

    #[test]
    fn a_blank_line_between_sections_is_added_without_losing_the_place() {
        let section = |t: &str| {
            format!("## {t}\n- 2025-01-01: a line long enough for a stretch of its own, café {t}")
        };
        let text = ["A", "B", "C", "D"].map(section).join("\n");
        let result = ["A", "B", "C", "D"].map(section).join("\n\n");
        assert_eq!(assemble(&text, &result).as_deref(), Some(result.as_str()));
        assert_eq!(slices(&text, &result), 4);
    }

    #[test]
    fn an_ascii_memory_is_sliced_at_its_common_start_and_end() {
        let lines: Vec<String> = (0..50)
            .map(|i| format!("- 2025-01-01: entry {i}"))
            .collect();
        let text = lines.join("\n");
        let result = text.replace("entry 25\n", "entry 25 rewritten\n");
        assert_eq!(assemble(&text, &result).as_deref(), Some(result.as_str()));
        assert_eq!(slices(&text, &result), 2);
    }

    #[test]
    fn one_long_line_is_sliced_at_its_common_start_and_end() {
        // A store's record: one line of JSON, the content (not ASCII) first.
        let content = "## Facts\\n- 2025-01-01: café ".repeat(40);
        let text = format!("{{\"content\":\"{content}\",\"kind\":\"head\",\"revision\":2}}");
        // The next snapshot: the content with one more entry, then its
        // own fields.
        let grown = format!(
            "{{\"content\":\"{content}- 2025-01-02: new\",\"kind\":\"snapshot\",\"revision\":3}}"
        );
        assert_eq!(assemble(&text, &grown).as_deref(), Some(grown.as_str()));
        assert_eq!(
            pieces(&text, units(&text), &grown).map(|p| p.len()),
            Some(2),
            "the content a slice, the rest converted"
        );
        // An edit in the middle of the content: a slice on either side.
        let edited = text.replacen("café", "thé", 20).replacen("thé", "café", 19);
        assert_eq!(assemble(&text, &edited).as_deref(), Some(edited.as_str()));
        assert_eq!(slices(&text, &edited), 2);
    }

    #[test]
    fn a_result_new_in_its_first_eighth_is_converted_whole() {
        let line = |i: usize| format!("- 2025-01-01: the entry number {i} of this section, with é");
        let text: Vec<String> = (0..40).map(line).collect();
        let mut result = text.clone();
        // The first quarter rewritten, the rest as it was: most of it
        // repeats, but nothing of the first eighth does.
        for l in &mut result[..10] {
            *l = l.replace("entry", "rewritten entry");
        }
        let (text, result) = (text.join("\n"), result.join("\n"));
        assert_eq!(pieces(&text, units(&text), &result), None);
        // Rewritten further on, it is sliced around what was rewritten.
        let late = text.replace("entry number 30 ", "rewritten entry number 30 ");
        assert_eq!(slices(&text, &late), 2);
    }

    #[test]
    fn crlf_everywhere_is_converted_whole() {
        let result = (0..500)
            .map(|i| format!("- 2025-01-01: line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let text = result.replace('\n', "\r\n");
        assert_eq!(pieces(&text, units(&text), &result), None);
    }

    #[test]
    fn a_stretch_never_ends_inside_a_character() {
        // é is C3 A9, ê C3 AA and ũ C5 A9: the first pair differs in its last
        // byte, the second in its first, so both the stretch from the start
        // and the common end would otherwise end inside a character.
        let c = "x".repeat(70);
        let (text, result) = (format!("{c}\n{c}é-é{c}"), format!("{c}\n{c}ê-ũ{c}"));
        assert_eq!(assemble(&text, &result).as_deref(), Some(result.as_str()));
        assert_eq!(slices(&text, &result), 2);
    }

    #[test]
    fn common_starts_and_ends_are_counted_to_the_first_difference() {
        for len in 0..40 {
            let a = "abcdefghij".repeat(4)[..len].to_owned();
            assert_eq!(common_start(&a, &a), len);
            assert_eq!(common_end(&a, &a), len);
            for at in 0..len {
                let mut b = a.clone().into_bytes();
                b[at] = b'_';
                let b = String::from_utf8(b).unwrap();
                assert_eq!(common_start(&a, &b), at, "{a:?} {b:?}");
                assert_eq!(common_end(&a, &b), len - at - 1, "{a:?} {b:?}");
                assert_eq!(common_start(&a, &b[..at]), at);
                assert_eq!(common_end(&a, &b[at + 1..]), len - at - 1);
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn the_pieces_make_the_result(
            lines in proptest::collection::vec("(## [aé]{0,3}|- 2025-01-0[1-3]: [ab😀 ]{0,90}|[ \r]{0,2}|x{60,70})", 0..40),
            edits in proptest::collection::vec((0usize..40, 0u8..4), 0..12),
        ) {
            let text = lines.join("\n");
            let mut out = lines.clone();
            for (at, what) in edits {
                if out.is_empty() { break; }
                let at = at % out.len();
                match what {
                    0 => { out.remove(at); }
                    1 => out.insert(at, String::new()),
                    2 => out[at].push('é'),
                    _ => out[at] = out[at].trim().to_owned(),
                }
            }
            let result = out.join("\n");
            if let Some(made) = assemble(&text, &result) {
                proptest::prop_assert_eq!(&made, &result);
            }
            if result == text && text.len() >= SHORTEST {
                proptest::prop_assert_eq!(slices(&text, &result), 1);
            }
        }
    }
}
