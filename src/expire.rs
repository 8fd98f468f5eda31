//! Expiry (docs/FORMAT.md, "Recall and expiry"): remove the dated entries that are older than a
//! section's policy allows, and report exactly what was removed so that it
//! can be archived. Raw lines, headings and sections without a policy are
//! never touched; running it again on its result removes nothing.

use serde::Serialize;

use crate::date::days_between;
use crate::document::{Document, Line};
use crate::error::Error;
use crate::heading::{normalize_heading, section_keys};
use crate::parse::{is_valid_date, parse};

/// How long the entries of a section are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpiryPolicy {
    /// The section title, compared normalized
    /// ([`normalize_heading`](crate::normalize_heading)).
    pub section: String,
    /// An entry older than this many days (counted to `today`) expires.
    pub max_age_days: u64,
}

/// Options of [`expire`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpireOptions {
    /// `YYYY-MM-DD`: ages are counted to this day.
    pub today: String,
    /// The policies; an entry expires when any policy of its section says so.
    pub policies: Vec<ExpiryPolicy>,
}

/// An entry that [`expire`] removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ExpiredEntry {
    /// The title of its section, as written.
    pub section: String,
    /// Its date.
    pub date: String,
    /// Its text.
    pub text: String,
}

/// The result of [`expire`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Expiry {
    /// The document without the expired entries, canonical.
    pub content: String,
    /// Exactly the removed entries, in document order.
    pub archived: Vec<ExpiredEntry>,
}

impl ExpireOptions {
    /// Check the options: the rules every caller's options follow, however
    /// they were built.
    ///
    /// # Errors
    /// [`Error::InvalidDate`] for a `today` that is not a real `YYYY-MM-DD`
    /// date; [`Error::InvalidPolicy`] for a policy whose section title
    /// normalizes to nothing (it could never match a section).
    ///
    /// ```
    /// use memdoc::{ExpireOptions, ExpiryPolicy};
    /// let options = ExpireOptions {
    ///     today: "2025-06-01".into(),
    ///     policies: vec![ExpiryPolicy { section: "  ##  ".into(), max_age_days: 30 }],
    /// };
    /// assert_eq!(options.check().unwrap_err().code(), "options/invalid-policy");
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if !is_valid_date(&self.today) {
            return Err(Error::InvalidDate(self.today.clone()));
        }
        for (index, policy) in self.policies.iter().enumerate() {
            if normalize_heading(&policy.section).is_empty() {
                return Err(Error::InvalidPolicy(format!(
                    "policy {index} needs a section title with a letter or digit"
                )));
            }
        }
        Ok(())
    }
}

/// Remove the entries of `text` that are older than their section's policy
/// allows: an entry dated `d` in a section whose normalized title matches a
/// policy's expires when `today − d > maxAgeDays` days. Entries dated after
/// `today` never expire. The result is canonical; every removed entry is in
/// `archived`, and nothing else changes but the canonical form.
///
/// ```
/// use memdoc::{expire, ExpireOptions, ExpiryPolicy};
/// let text = "## Current Priorities\n- 2025-01-01: Ship v1\n- 2025-05-30: Ship v2\n\n## Decisions\n- 2024-01-01: Use Rust";
/// let options = ExpireOptions {
///     today: "2025-06-01".into(),
///     policies: vec![ExpiryPolicy { section: "current priorities".into(), max_age_days: 30 }],
/// };
/// let result = expire(text, &options);
/// assert_eq!(result.content, "## Current Priorities\n- 2025-05-30: Ship v2\n\n## Decisions\n- 2024-01-01: Use Rust");
/// assert_eq!(result.archived[0].text, "Ship v1");
/// assert!(expire(&result.content, &options).archived.is_empty());
/// ```
#[must_use]
pub fn expire(text: &str, options: &ExpireOptions) -> Expiry {
    let mut doc = parse(text);
    // Each policy's key, once; a title that normalizes to nothing matches
    // no section.
    let policies: Vec<(String, u64)> = options
        .policies
        .iter()
        .map(|p| (normalize_heading(&p.section), p.max_age_days))
        .filter(|(key, _)| !key.is_empty())
        .collect();
    let mut archived = Vec::new();
    let keys = if policies.is_empty() {
        Vec::new()
    } else {
        section_keys(&doc)
    };
    for (section, key) in doc.sections.iter_mut().zip(keys) {
        let max_age = policies
            .iter()
            .filter(|(policy, _)| *policy == key)
            .map(|&(_, max_age)| max_age)
            .min();
        let Some(max_age) = max_age else {
            continue;
        };
        let title = &section.title;
        section.lines.retain(|line| {
            let Line::Entry(entry) = line else {
                return true;
            };
            let age = days_between(&entry.date, &options.today).unwrap_or(0);
            let expired = u64::try_from(age).is_ok_and(|age| age > max_age);
            if expired {
                archived.push(ExpiredEntry {
                    section: title.to_string(),
                    date: entry.date.to_string(),
                    text: entry.text.to_string(),
                });
            }
            !expired
        });
    }
    let content = Document {
        sections: doc.sections,
        ..Document::default()
    }
    .render();
    Expiry { content, archived }
}
