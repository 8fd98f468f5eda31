//! Which memory a call is about ([`MemoryRef`]) and the host keys the store
//! builds for it. Keys are built here and nowhere else, from a checked scope,
//! a checked id and a checked prefix, so that no caller-supplied string can
//! reach another memory's keys: ids cannot contain `/`, so a head key
//! (`{prefix}/{scope}/{id}`) is never a prefix-sibling of another id's keys,
//! and snapshot keys live under the head key plus `/rev/`.

use crate::Scope;

use super::error::StoreError;

/// The default key prefix.
pub const DEFAULT_KEY_PREFIX: &str = "memdoc";
/// The longest id, in bytes (ids are ASCII).
pub const MAX_ID_LEN: usize = 128;
/// The longest key prefix, in bytes (prefixes are ASCII).
pub const MAX_KEY_PREFIX_LEN: usize = 64;

/// One memory: whose it is and its id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MemoryRef {
    scope: Scope,
    id: String,
}

impl MemoryRef {
    /// A reference to the memory `id` in `scope`.
    ///
    /// ```
    /// use memdoc::store::{MemoryRef, StoreError};
    /// use memdoc::Scope;
    /// // The error type follows the host's (here none: `()`).
    /// let ok: Result<MemoryRef, StoreError<()>> = MemoryRef::new(Scope::User, "alice@example.com");
    /// assert!(ok.is_ok());
    /// let err = MemoryRef::new::<()>(Scope::User, "../etc").unwrap_err();
    /// assert_eq!(err.code(), "store/invalid-id");
    /// ```
    ///
    /// # Errors
    /// [`StoreError::InvalidId`] unless `id` is 1–128 characters of
    /// `[A-Za-z0-9._@:-]` starting with a letter or digit.
    pub fn new<E>(scope: Scope, id: &str) -> Result<Self, StoreError<E>> {
        if is_valid_id(id) {
            Ok(Self {
                scope,
                id: id.to_owned(),
            })
        } else {
            Err(StoreError::InvalidId(id.to_owned()))
        }
    }

    /// A reference from loosely typed input, the scope as a string.
    ///
    /// # Errors
    /// [`StoreError::Options`] with `options/invalid-scope` for a scope other
    /// than `user` or `team`; [`StoreError::InvalidId`] for a bad id.
    pub fn parse<E>(scope: &str, id: &str) -> Result<Self, StoreError<E>> {
        let scope = scope.parse::<Scope>().map_err(StoreError::Options)?;
        Self::new(scope, id)
    }

    /// Whose memory it is.
    #[must_use]
    pub const fn scope(&self) -> Scope {
        self.scope
    }

    /// The checked id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// Whether `id` is 1–128 of `[A-Za-z0-9._@:-]`, starting alphanumeric.
#[must_use]
pub fn is_valid_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_ID_LEN
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'@' | b':' | b'-'))
}

/// Whether `prefix` is a usable key prefix: 1–64 characters of
/// `[A-Za-z0-9._:-]` in one or more `/`-separated non-empty segments.
#[must_use]
pub fn is_valid_key_prefix(prefix: &str) -> bool {
    prefix.len() <= MAX_KEY_PREFIX_LEN
        && prefix.split('/').all(|segment| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
        })
}

/// The key of a memory's head record.
pub(crate) fn head_key(prefix: &str, r: &MemoryRef) -> String {
    format!("{prefix}/{}/{}", r.scope.as_str(), r.id)
}

/// Every snapshot key of a memory starts with this.
pub(crate) fn snapshot_key_prefix(prefix: &str, r: &MemoryRef) -> String {
    format!("{}/rev/", head_key(prefix, r))
}

/// The key of one revision's snapshot. `tag` comes from the snapshot's own
/// bytes, so two writers racing for the same revision with different
/// content claim different keys, and neither can overwrite the other.
pub(crate) fn snapshot_key(prefix: &str, r: &MemoryRef, revision: u64, tag: &str) -> String {
    format!("{}{revision}/{tag}", snapshot_key_prefix(prefix, r))
}

/// 64-bit FNV-1a over `bytes` taken eight at a time (little-endian words,
/// the last one padded with zeros), then over their length, as 16 hex
/// digits, then `salt` when it is non-zero. A multiplication per eight bytes,
/// not per byte: each waits for the one before, and per byte they were a
/// visible share of a save through the package (BENCHMARKS.md). Two
/// texts of the same length that differ in one word never share a tag (each
/// step is a bijection of the hash). This is not a security boundary: a
/// snapshot is written only where no key exists yet, and a collision is
/// detected by reading the key back.
pub(crate) fn content_tag(bytes: &[u8], salt: u32) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut step = |word: u64| hash = (hash ^ word).wrapping_mul(0x0000_0100_0000_01b3);
    let words = bytes.chunks_exact(8);
    let rest = words.remainder();
    for word in words {
        step(u64::from_le_bytes(word.try_into().unwrap_or_default()));
    }
    let mut last = [0; 8];
    last[..rest.len()].copy_from_slice(rest);
    step(u64::from_le_bytes(last));
    step(bytes.len() as u64);
    if salt == 0 {
        format!("{hash:016x}")
    } else {
        format!("{hash:016x}-{salt}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_grammar() {
        for good in [
            "a",
            "A1",
            "alice@example.com",
            "team:eng-1_x.y",
            &"a".repeat(128),
        ] {
            assert!(is_valid_id(good), "should accept {good:?}");
        }
        for bad in ["", "-a", ".a", "a/b", "a b", "é", &"a".repeat(129), "a\0"] {
            assert!(!is_valid_id(bad), "should reject {bad:?}");
        }
    }

    #[test]
    fn prefixes_are_plain_segments() {
        assert!(is_valid_key_prefix("memdoc"));
        assert!(is_valid_key_prefix("app/memdoc.v1"));
        for bad in ["", "/x", "x/", "a//b", "a b", &"a".repeat(65)] {
            assert!(!is_valid_key_prefix(bad), "should reject {bad:?}");
        }
    }

    #[test]
    fn snapshot_keys_sit_under_the_head_key() {
        let r = MemoryRef::new::<()>(Scope::Team, "eng").unwrap();
        assert_eq!(head_key("memdoc", &r), "memdoc/team/eng");
        let key = snapshot_key("memdoc", &r, 7, &content_tag(b"x", 0));
        assert!(key.starts_with("memdoc/team/eng/rev/7/"), "{key}");
        assert_ne!(content_tag(b"x", 0), content_tag(b"y", 0));
        assert_ne!(content_tag(b"x", 0), content_tag(b"x", 1));
    }

    #[test]
    fn tags_are_fnv_1a_over_words_then_the_length() {
        // As docs/record-format.md defines them (computed apart, in Python).
        assert_eq!(content_tag(b"", 0), "08328807b4eb6fed");
        assert_eq!(content_tag(b"a", 0), "089be307b544f397");
        assert_eq!(content_tag(b"a\0", 0), "089be407b544f54a");
        assert_eq!(content_tag(b"memdoc/1 snapshot", 2), "2fffaa14ae588b7f-2");
        // Any one byte changed, anywhere in a text of several words and a
        // part, changes the tag.
        let text = b"{\"format\":\"memdoc/1\",\"kind\":\"snapshot\"}";
        let tag = content_tag(text, 0);
        for at in 0..text.len() {
            for byte in [0, 1, b'x', 0x80, 0xff] {
                let mut other = text.to_vec();
                if other[at] != byte {
                    other[at] = byte;
                    assert_ne!(content_tag(&other, 0), tag, "{at} {byte}");
                }
            }
        }
    }
}
