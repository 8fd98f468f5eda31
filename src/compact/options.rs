//! The options of [`compact`](crate::compact), with their defaults.

use crate::limits::DEFAULT_HARD_LIMIT;
use crate::options::Scope;

/// Options of [`compact`](crate::compact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactOptions {
    /// Whose memory it is: decides which sections are kept longest.
    pub scope: Scope,
    /// The size to reach, in code points of the canonical form (at least 1).
    pub target: usize,
    /// `YYYY-MM-DD`: entry dates after it count as this date when ages are
    /// compared. `None`: dates are taken as written.
    pub today: Option<String>,
}

impl Default for CompactOptions {
    fn default() -> Self {
        Self {
            scope: Scope::User,
            target: DEFAULT_HARD_LIMIT,
            today: None,
        }
    }
}
