//! The byte scans of [`fast`](super) eight bytes at a time, in one word:
//! natively, and in WebAssembly for what is left after the last whole block
//! of [`sixteen`](super::sixteen).

/// The bytes a block holds.
pub(crate) const BLOCK: usize = 8;

/// A chunk of eight bytes as one word, its first byte lowest.
pub(crate) fn word(chunk: &[u8]) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(chunk);
    u64::from_le_bytes(word)
}

/// `0x01` in every byte of a word: `n * ONES` is `n` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of every byte of a word.
pub(crate) const HIGH: u64 = ONES << 7;

/// The high bit set of each zero byte of `x`, and maybe of bytes above
/// one (the subtraction's borrow), never of others: not zero exactly when
/// `x` has a zero byte, and its lowest set bit is in the lowest one.
pub(crate) const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// `a == b`, a word at a time.
pub(crate) fn eq(a: &[u8], b: &[u8]) -> bool {
    let (x, y) = (a.chunks_exact(BLOCK), b.chunks_exact(BLOCK));
    a.len() == b.len()
        && x.remainder().iter().eq(y.remainder())
        && x.zip(y).all(|(p, q)| word(p) == word(q))
}

/// The offset of the first LF or CR at or after `from`, or the length of
/// `bytes`. A byte equal to the one sought is a zero byte of the word
/// combined with it by exclusive or, and the lowest zero byte of a word is
/// exactly the lowest byte whose high bit [`zero_bytes`] sets (higher ones
/// may be false alarms, lower ones never are).
pub(crate) fn line_end(bytes: &[u8], from: usize) -> usize {
    let mut at = from.min(bytes.len());
    while at + BLOCK <= bytes.len() {
        let x = word(&bytes[at..at + BLOCK]);
        let found =
            zero_bytes(x ^ (ONES * u64::from(b'\n'))) | zero_bytes(x ^ (ONES * u64::from(b'\r')));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += BLOCK;
    }
    at + bytes[at..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(bytes.len() - at)
}

/// The bytes of `bytes` (UTF-8) that start a character, and (when
/// `count_fours`) those that start one of four bytes (lead byte
/// `11110xxx`).
pub(crate) fn starts_and_fours(bytes: &[u8], count_fours: bool) -> (usize, usize) {
    let mut chunks = bytes.chunks_exact(BLOCK);
    let (mut starts, mut fours) = (0, 0);
    for chunk in &mut chunks {
        let w = word(chunk);
        starts += word_starts(w);
        if count_fours {
            fours += word_fours(w);
        }
    }
    for &b in chunks.remainder() {
        starts += usize::from(b & 0xC0 != 0x80);
        fours += usize::from(count_fours && b >= 0xF0);
    }
    (starts, fours)
}

/// How far whole blocks of `bytes` (UTF-8) go from its start within the
/// first `units` UTF-16 units: the offset where they end and the units
/// before it. The rest is counted byte by byte.
pub(crate) fn utf16_blocks(bytes: &[u8], units: usize) -> (usize, usize) {
    let (mut at, mut seen) = (0, 0);
    for chunk in bytes.chunks_exact(BLOCK) {
        let w = word(chunk);
        let n = word_starts(w) + word_fours(w);
        if seen + n > units {
            break;
        }
        seen += n;
        at += BLOCK;
    }
    (at, seen)
}

/// Whether `bytes` holds a U+FFFD: a word that holds its first byte
/// (`0xEF`) is looked at closely.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn contains_replacement(bytes: &[u8]) -> bool {
    let mut start = 0;
    while start + BLOCK <= bytes.len() {
        let x = word(&bytes[start..start + BLOCK]) ^ (0xEF * ONES);
        if zero_bytes(x) != 0 && super::count::fffd_from(bytes, start, start + BLOCK + 2) {
            return true;
        }
        start += BLOCK;
    }
    super::count::fffd_from(bytes, start, bytes.len())
}

/// The bytes of the word `w` of UTF-8 that start a character: all but
/// those that continue one (`10xxxxxx`).
const fn word_starts(w: u64) -> usize {
    8 - (w & !(w << 1) & HIGH).count_ones() as usize
}

/// The bytes of the word `w` of UTF-8 that start a character of four bytes
/// (`11110xxx`): a shift by one to three bits brings a byte's lower bits
/// to its top bit, never a neighbour's.
const fn word_fours(w: u64) -> usize {
    (w & (w << 1) & (w << 2) & (w << 3) & HIGH).count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::{eq, line_end};

    #[test]
    fn eq_is_equality() {
        let texts = [
            "",
            "a",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefgh\u{e9}",
            "abcdefgi\u{e9}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(eq(a.as_bytes(), b.as_bytes()), a == b, "{a:?} {b:?}");
            }
        }
        // A difference at every position of texts of every length to 40.
        let base: Vec<u8> = (0..40u8).collect();
        for len in 0..base.len() {
            for at in 0..len {
                let mut other = base[..len].to_vec();
                other[at] ^= 1;
                assert!(!eq(&base[..len], &other), "{len} {at}");
            }
            let copy = base[..len].to_vec();
            assert!(eq(&base[..len], &copy));
        }
    }

    /// The first LF or CR byte by looking at every byte.
    fn one_by_one(bytes: &[u8], from: usize) -> usize {
        (from..bytes.len())
            .find(|&i| bytes[i] == b'\n' || bytes[i] == b'\r')
            .unwrap_or(bytes.len())
    }

    #[test]
    fn line_end_finds_what_a_byte_by_byte_scan_finds() {
        // Every break at every place of a word, after bytes with the high
        // bit set (UTF-8), the break's neighbours (0x09, 0x0B, 0x0C, 0x0E)
        // and bytes that differ from a break by one bit (0x8A, 0x8D, 0x4A).
        let fillers: [&[u8]; 4] = [
            b"abcdefghijklmnopq",
            "éè—🎯ü".as_bytes(),
            b"\t\x0b\x0c\x0e\x09",
            b"\x8a\x8d\x4a\x2a",
        ];
        for filler in fillers {
            for len in 0..24 {
                for at in 0..=len {
                    for brk in [&b"\n"[..], b"\r", b"\r\n", b""] {
                        let mut bytes: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                        bytes.splice(at..at, brk.iter().copied());
                        bytes.extend_from_slice(b"x\ny");
                        for from in 0..bytes.len() {
                            assert_eq!(
                                line_end(&bytes, from),
                                one_by_one(&bytes, from),
                                "{bytes:?} from {from}"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(line_end(b"abc", 7), 3);
    }
}
