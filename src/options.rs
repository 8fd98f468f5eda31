//! Options of the pure functions, with their defaults. Loosely typed input
//! (what arrives from JavaScript) is checked into them at the boundary.

use crate::error::Error;
use crate::limits::Limits;

/// The headings that are personal and so not allowed in team scope
/// (compared after [`normalize_heading`](crate::normalize_heading)).
pub const DEFAULT_FORBIDDEN_TEAM_HEADINGS: [&str; 4] = [
    "preferences",
    "instructions",
    "personal notes",
    "personal instructions",
];

/// Whose memory a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
pub enum Scope {
    /// A user's private memory.
    #[default]
    User,
    /// A team's shared memory: personal headings are not allowed.
    Team,
}

impl Scope {
    /// `"user"` or `"team"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Team => "team",
        }
    }
}

impl std::str::FromStr for Scope {
    type Err = Error;

    /// Exactly `user` or `team`; anything else is an error, not a default.
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "user" => Ok(Self::User),
            "team" => Ok(Self::Team),
            other => Err(Error::InvalidScope(other.to_owned())),
        }
    }
}

/// Options of [`validate`](crate::validate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateOptions {
    /// Whose memory this is.
    pub scope: Scope,
    /// The stored document, for the scope and diff rules.
    pub previous: Option<String>,
    /// Size limits.
    pub limits: Limits,
    /// Headings not allowed in team scope (normalized when compared).
    pub forbidden_team_headings: Vec<String>,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        Self {
            scope: Scope::User,
            previous: None,
            limits: Limits::default(),
            forbidden_team_headings: DEFAULT_FORBIDDEN_TEAM_HEADINGS
                .iter()
                .map(|&h| h.to_owned())
                .collect(),
        }
    }
}

/// Options of [`plan_save`](crate::plan_save).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SaveOptions {
    /// Scope, previous document, limits and forbidden headings.
    pub validate: ValidateOptions,
    /// Allow replacing a non-empty memory with an empty one.
    pub allow_erase: bool,
}

/// Options of [`injection_block`](crate::injection_block).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InjectOptions {
    /// Team or user block.
    pub scope: Scope,
    /// `limit` is the hard limit; the warning appears above the soft one.
    pub limits: Limits,
    /// The user's display name (user scope; its first word is used).
    pub user_name: Option<String>,
    /// The content is a recalled part of a larger memory
    /// ([`recall`](crate::recall)): the opening tag says how many items of
    /// how many, so the agent knows it is not seeing everything.
    pub recalled: Option<Recalled>,
}

/// How much of a memory a recalled content holds: `selected` of its `items`
/// items ([`RecallTotals`](crate::RecallTotals) converts into it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recalled {
    /// Items taken.
    pub selected: usize,
    /// Items in the whole memory.
    pub items: usize,
}
