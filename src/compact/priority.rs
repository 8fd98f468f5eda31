//! Which sections keep their entries longest when compaction has to remove
//! some: a priority class per section title and scope.

use crate::heading::normalize_heading;
use crate::options::Scope;

/// How long a section's entries are kept when compaction has to remove some.
/// Lower classes lose their entries first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "lowercase")
)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Current priorities and open questions: they go stale first.
    Transient,
    /// A section no keyword classifies.
    Other,
    /// Facts.
    Facts,
    /// Team: decisions and conventions. User: instructions and preferences.
    Core,
}

impl Priority {
    /// `"transient"`, `"other"`, `"facts"` or `"core"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Transient => "transient",
            Self::Other => "other",
            Self::Facts => "facts",
            Self::Core => "core",
        }
    }
}

/// The priority class of a section title in a scope: a keyword matches when
/// a word of the normalized title starts with it (`priorit` matches
/// `priorities`; `fact` does not match `artifacts`). When several match, the
/// class kept longest wins.
///
/// | class | team | user |
/// |---|---|---|
/// | core | `decision`, `convention` | `instruction`, `preference` |
/// | facts | `fact` | `fact` |
/// | other | anything else | anything else |
/// | transient | `priorit`, `question` | `priorit`, `question` |
///
/// ```
/// use memdoc::{section_priority, Priority, Scope};
/// assert_eq!(section_priority("Product Decisions", Scope::Team), Priority::Core);
/// assert_eq!(section_priority("Current Priorities", Scope::Team), Priority::Transient);
/// assert_eq!(section_priority("Preferences", Scope::Team), Priority::Other);
/// assert_eq!(section_priority("Preferences", Scope::User), Priority::Core);
/// ```
#[must_use]
pub fn section_priority(title: &str, scope: Scope) -> Priority {
    priority_of_normalized(&normalize_heading(title), scope)
}

/// [`section_priority`] of the title that [`normalize_heading`] made
/// `normalized`.
pub(crate) fn priority_of_normalized(normalized: &str, scope: Scope) -> Priority {
    let core: &[&str] = match scope {
        Scope::Team => &["decision", "convention"],
        Scope::User => &["instruction", "preference"],
    };
    let has = |keywords: &[&str]| {
        normalized
            .split(' ')
            .any(|word| keywords.iter().any(|k| word.starts_with(k)))
    };
    if has(core) {
        Priority::Core
    } else if has(&["fact"]) {
        Priority::Facts
    } else if has(&["priorit", "question"]) {
        Priority::Transient
    } else {
        Priority::Other
    }
}
