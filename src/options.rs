//! Options of the pure functions, with their defaults, and the checked
//! conversion from loosely typed input (what arrives from JavaScript or a
//! config file) into them. Bad options are coded errors, never silent
//! defaults.

use serde::Deserialize;

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
    /// For a recalled part of a memory ([`recall`](crate::recall)): the
    /// block's `recalled="SELECTED of ITEMS"` attribute.
    pub recalled: Option<RecalledCount>,
}

/// How much of a memory a recalled block shows: `selected` of its `items`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecalledCount {
    /// Items shown.
    pub selected: usize,
    /// Items in the whole memory.
    pub items: usize,
}

/// [`RecalledCount`] as JavaScript passes it (a `Recall`'s `totals` will
/// do: other fields are ignored).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct RecalledCountInput {
    /// Items shown: a whole number.
    pub selected: Option<f64>,
    /// Items in the whole memory: a whole number, at least `selected`.
    pub items: Option<f64>,
}

impl RecalledCountInput {
    /// Check the count.
    ///
    /// # Errors
    /// [`Error::InvalidOptions`] for a missing, negative or fractional
    /// number, or `selected > items`.
    pub fn resolve(self) -> Result<RecalledCount, Error> {
        let count = |v: Option<f64>, name: &str| {
            v.and_then(|n| if n == 0.0 { Some(0) } else { positive_whole(n) })
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    Error::InvalidOptions(format!("recalled.{name} must be a whole number ≥ 0"))
                })
        };
        let selected = count(self.selected, "selected")?;
        let items = count(self.items, "items")?;
        if selected > items {
            return Err(Error::InvalidOptions(format!(
                "recalled.selected ({selected}) is more than recalled.items ({items})"
            )));
        }
        Ok(RecalledCount { selected, items })
    }
}

/// Limits as given by a caller: either may be missing.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsInput {
    /// Soft limit, default 18,000.
    pub soft: Option<f64>,
    /// Hard limit, default 25,000.
    pub hard: Option<f64>,
}

/// The loosely typed options of every pure function, as they arrive from
/// JavaScript (`camelCase`, every field optional, `null` allowed).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionsInput {
    /// `"user"` or `"team"`.
    pub scope: Option<String>,
    /// The stored document.
    pub previous: Option<String>,
    /// Partial limits.
    pub limits: Option<LimitsInput>,
    /// Headings not allowed in team scope.
    pub forbidden_team_headings: Option<Vec<String>>,
    /// For saves.
    pub allow_erase: Option<bool>,
    /// For the prompt block.
    pub user_name: Option<String>,
    /// For the prompt block of a recalled part.
    pub recalled: Option<RecalledCountInput>,
}

impl LimitsInput {
    /// Check and complete the limits.
    ///
    /// # Errors
    /// [`Error::InvalidLimits`] for a negative, fractional, non-finite or zero
    /// limit, or `soft > hard`.
    pub fn resolve(self) -> Result<Limits, Error> {
        let defaults = Limits::default();
        let soft = whole(self.soft, defaults.soft)?;
        let hard = whole(self.hard, defaults.hard)?;
        Limits::new(soft, hard)
    }
}

fn whole(value: Option<f64>, default: usize) -> Result<usize, Error> {
    let Some(v) = value else { return Ok(default) };
    positive_whole(v)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            Error::InvalidLimits(format!(
                "{} is not a positive whole number",
                describe_number(v)
            ))
        })
}

/// `n` as a whole number ≥ 1 that a JavaScript number represents exactly
/// (at most 2^53), or `None`.
pub(crate) fn positive_whole(n: f64) -> Option<u64> {
    if n.is_finite() && n >= 1.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_992.0 {
        // Checked above: a positive whole number within 2^53.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(n as u64)
    } else {
        None
    }
}

/// A number as an error message shows it. Whole numbers are written out;
/// anything else is described, which keeps float formatting (and its
/// tables) out of the WebAssembly module.
pub(crate) fn describe_number(n: f64) -> String {
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

impl OptionsInput {
    /// The scope, default `user`.
    ///
    /// # Errors
    /// [`Error::InvalidScope`] for anything but `user` or `team`.
    pub fn scope(&self) -> Result<Scope, Error> {
        self.scope.as_deref().map_or(Ok(Scope::User), str::parse)
    }

    /// The limits, defaults filled in.
    ///
    /// # Errors
    /// [`Error::InvalidLimits`].
    pub fn limits(&self) -> Result<Limits, Error> {
        self.limits.unwrap_or_default().resolve()
    }

    /// Options for [`validate`](crate::validate).
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn validate_options(&self) -> Result<ValidateOptions, Error> {
        let defaults = ValidateOptions::default();
        Ok(ValidateOptions {
            scope: self.scope()?,
            previous: self.previous.clone(),
            limits: self.limits()?,
            forbidden_team_headings: self
                .forbidden_team_headings
                .clone()
                .unwrap_or(defaults.forbidden_team_headings),
        })
    }

    /// Options for [`plan_save`](crate::plan_save).
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn save_options(&self) -> Result<SaveOptions, Error> {
        Ok(SaveOptions {
            validate: self.validate_options()?,
            allow_erase: self.allow_erase.unwrap_or(false),
        })
    }

    /// Options for [`injection_block`](crate::injection_block).
    ///
    /// # Errors
    /// Bad scope or limits.
    pub fn inject_options(&self) -> Result<InjectOptions, Error> {
        Ok(InjectOptions {
            scope: self.scope()?,
            limits: self.limits()?,
            user_name: self.user_name.clone(),
            recalled: self.recalled.map(RecalledCountInput::resolve).transpose()?,
        })
    }
}
