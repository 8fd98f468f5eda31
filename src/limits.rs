//! Size limits and [`Usage`] (docs/FORMAT.md §8). Size is counted in code points of
//! the canonical form, never in UTF-16 units or bytes; the UTF-8 byte size is
//! reported beside it because key-value stores limit bytes.

use serde::Serialize;

use crate::error::Error;
use crate::fast::char_count;
use crate::render::render;

/// The default soft limit: above it a warning asks the agent to consolidate.
pub const DEFAULT_SOFT_LIMIT: usize = 18_000;
/// The default hard limit: above it a save is rejected.
pub const DEFAULT_HARD_LIMIT: usize = 25_000;

/// Size limits in code points (defaults: soft 18000, hard 25000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Limits {
    /// Above this, a `size/soft-limit` warning.
    pub soft: usize,
    /// Above this, a `size/hard-limit` error.
    pub hard: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            soft: DEFAULT_SOFT_LIMIT,
            hard: DEFAULT_HARD_LIMIT,
        }
    }
}

impl Limits {
    /// Limits with `1 <= soft <= hard`.
    ///
    /// # Errors
    /// [`Error::InvalidLimits`] when a limit is zero or `soft > hard`.
    pub fn new(soft: usize, hard: usize) -> Result<Self, Error> {
        if soft == 0 || hard == 0 || soft > hard {
            return Err(Error::InvalidLimits(format!(
                "soft={soft}, hard={hard}; both must be positive and soft must not exceed hard"
            )));
        }
        Ok(Self { soft, hard })
    }

    /// Where `chars` stands against these limits.
    #[must_use]
    pub const fn level(&self, chars: usize) -> Level {
        if chars > self.hard {
            Level::Hard
        } else if chars > self.soft {
            Level::Soft
        } else {
            Level::Ok
        }
    }
}

/// Where a size stands against the limits.
///
/// Serializes as [`Level::as_str`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// At or under the soft limit.
    Ok,
    /// Over the soft limit, at or under the hard limit.
    Soft,
    /// Over the hard limit.
    Hard,
}

impl Level {
    /// `"ok"`, `"soft"` or `"hard"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Soft => "soft",
            Self::Hard => "hard",
        }
    }
}

/// The size of a canonical text against the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Code points of the canonical form.
    pub chars: usize,
    /// UTF-8 bytes.
    pub utf8_bytes: usize,
    /// The soft limit used.
    pub soft: usize,
    /// The hard limit used.
    pub hard: usize,
    /// Where `chars` stands: `"soft"` above the soft limit, `"hard"` above
    /// the hard limit.
    pub level: Level,
}

impl Usage {
    /// The usage of `canonical`, a text that is already in canonical form.
    #[must_use]
    pub fn of_canonical(canonical: &str, limits: Limits) -> Self {
        let chars = char_count(canonical);
        Self {
            chars,
            utf8_bytes: canonical.len(),
            soft: limits.soft,
            hard: limits.hard,
            level: limits.level(chars),
        }
    }
}

/// The usage of `text`'s canonical form.
///
/// ```
/// use memdoc::{usage, Limits};
/// let u = usage("## Emoji\n- 2025-01-01: 😀", Limits::default());
/// assert_eq!((u.chars, u.utf8_bytes), (24, 27));
/// ```
#[must_use]
pub fn usage(text: &str, limits: Limits) -> Usage {
    Usage::of_canonical(&render(text), limits)
}

/// `18000` as `18,000`: how every message shows a size or a limit, the
/// `memdoc` command's too.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `18,001/25,000`, as the prompt block and the messages show usage.
pub(crate) fn usage_fraction(chars: usize, limit: usize) -> String {
    format!("{}/{}", thousands(chars), thousands(limit))
}

/// A number as an error message shows it. Whole numbers are written out;
/// anything else is described, which keeps float formatting (and its
/// tables) out of the WebAssembly module.
pub fn describe_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_992.0 {
        // Checked above: whole and within 2^53.
        #[allow(clippy::cast_possible_truncation)]
        let whole = n as i64;
        whole.to_string()
    } else {
        "a number with a fraction".to_owned()
    }
}
