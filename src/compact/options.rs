//! The options of [`compact`](crate::compact), and their checked conversion
//! from loosely typed input (what arrives from JavaScript): bad values are
//! coded errors, never silent defaults.

use serde::Deserialize;

use crate::error::Error;
use crate::limits::DEFAULT_HARD_LIMIT;
use crate::options::Scope;
use crate::parse::is_valid_date;

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

/// [`CompactOptions`] as JavaScript passes them: camelCase, every field
/// optional, `null` allowed.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactOptionsInput {
    /// `"user"` or `"team"`, default `"user"`.
    pub scope: Option<String>,
    /// A positive whole number, default 25,000 (the default hard limit).
    pub target: Option<f64>,
    /// A real `YYYY-MM-DD` date.
    pub today: Option<String>,
}

impl CompactOptionsInput {
    /// Check and complete the options.
    ///
    /// # Errors
    /// [`Error::InvalidScope`] for a scope other than `user` or `team`;
    /// [`Error::InvalidTarget`] for a target that is not a whole number from
    /// 1 to 10^15; [`Error::InvalidDate`] for a `today` that is not a real
    /// `YYYY-MM-DD` date.
    ///
    /// ```
    /// use memdoc::CompactOptionsInput;
    /// let input = CompactOptionsInput { target: Some(0.5), ..CompactOptionsInput::default() };
    /// assert_eq!(input.resolve().unwrap_err().code(), "options/invalid-target");
    /// ```
    pub fn resolve(&self) -> Result<CompactOptions, Error> {
        let scope = self.scope.as_deref().map_or(Ok(Scope::User), str::parse)?;
        let target = match self.target {
            None => DEFAULT_HARD_LIMIT,
            Some(v) => whole_target(v)?,
        };
        if let Some(today) = &self.today {
            if !is_valid_date(today) {
                return Err(Error::InvalidDate(today.clone()));
            }
        }
        Ok(CompactOptions {
            scope,
            target,
            today: self.today.clone(),
        })
    }
}

fn whole_target(v: f64) -> Result<usize, Error> {
    if !v.is_finite() || v < 1.0 || v.fract() != 0.0 || v > 1e15 {
        return Err(Error::InvalidTarget(format!(
            "{v} is not a positive whole number"
        )));
    }
    // Checked above: a positive whole number well inside usize.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(v as usize)
}
