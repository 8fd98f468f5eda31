//! memdoc: the engine for the Markdown memory documents that AI agents keep
//! about a user or a team.
//!
//! A memory document is `## Section` headings with `- YYYY-MM-DD: text`
//! entries. memdoc parses it (every string, never panicking), renders one
//! canonical form, measures it in code points, validates it against size,
//! scope and diff rules, plans a save that can never silently erase a memory,
//! and builds the block an agent sees in its prompt. The behaviour is
//! specified in docs/FORMAT.md; the same API ships to JavaScript as the npm
//! package `memdoc`.
//!
//! ```
//! use memdoc::{plan_save, validate, Scope, SaveOptions, SaveStatus, ValidateOptions};
//!
//! let previous = "## Product Decisions\n- 2025-03-15: Standups are on Mondays";
//! let reply = "Sure! Here is the memory:\n## Product Decisions\n- 2025-03-15: Standups are on Mondays\n\n## Preferences\n- 2025-03-16: Alex likes dark mode";
//! let options = ValidateOptions {
//!     scope: Scope::Team,
//!     previous: Some(previous.to_owned()),
//!     ..ValidateOptions::default()
//! };
//!
//! let report = validate(reply, &options);
//! let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
//! assert_eq!(codes, ["structure/preamble-dropped", "scope/personal-heading"]);
//!
//! let plan = plan_save(reply, &SaveOptions { validate: options, allow_erase: false });
//! assert_eq!(plan.status, SaveStatus::Rejected);
//! assert_eq!(plan.content, previous); // nothing changes
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::pedantic)]
// Documents are counted in code points and bytes; these casts are checked where they happen.
#![allow(clippy::module_name_repetitions, clippy::must_use_candidate)]

mod compact;
mod date;
mod diagnostic;
mod document;
mod error;
mod expire;
mod fast;
mod grouping;
mod heading;
mod inject;
mod limits;
mod lines;
mod merge;
mod options;
mod parse;
mod quoted;
mod recall;
mod render;
mod save;
mod span;
pub mod store;
mod validate;

// The JavaScript shape of the API (options in, views out), for the wasm
// boundary. Public only so that the tests can check it natively; not part of
// the Rust API (no `*View` or `*Input` type is), and not covered by semver.
#[doc(hidden)]
pub mod js;

// How the results cross into JavaScript: one folder per wire format, its
// Rust and JavaScript halves side by side. Public for the same reason as
// `js`, and no more part of the Rust API.
#[doc(hidden)]
pub mod wire;

// Public only so that tests/wasm.rs can call the exports from Rust; Rust
// callers use the functions above, JavaScript callers the npm package.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod wasm;

pub use compact::{
    compact, section_priority, CompactOptions, Compaction, MergedSection, Priority, RemovalReason,
    RemovedEntry,
};
pub use date::civil_date;
pub use diagnostic::{Code, Diagnostic, Severity};
pub use document::{Document, Entry, LegacyMarker, Line, RawLine, Section, IMPLICIT_TITLE};
pub use error::Error;
pub use expire::{expire, ExpireOptions, ExpiredEntry, Expiry, ExpiryPolicy};
pub use heading::normalize_heading;
pub use inject::{escape_reserved, injection_block, RESERVED_TAGS};
pub use limits::{thousands, usage, Level, Limits, Usage, DEFAULT_HARD_LIMIT, DEFAULT_SOFT_LIMIT};
pub use merge::{
    lcs_matches, merge, merge_marked, Conflict, ConflictKind, ConflictSide, DroppedLine,
    MergeResult, Side,
};
pub use options::{
    InjectOptions, Recalled, SaveOptions, Scope, ValidateOptions, DEFAULT_FORBIDDEN_TEAM_HEADINGS,
};
pub use parse::{heading_title, is_valid_date, parse, parse_entry};
pub use quoted::Quoted;
pub use recall::{
    calibration, hybrid_recall, prepare_recall, recall, recall_items, Calibration, Measure,
    OmitReason, OmittedItem, PreparedMemory, PreparedRecall, PriorityMeasure, Recall,
    RecallOptions, RecallTotals, RecallVectors, RecallWeights, RecalledItem, RecencyMeasure, Why,
    BM25_B, BM25_K1, CALIBRATIONS, DEFAULT_CALIBRATION, DEFAULT_HALF_LIFE_DAYS,
    DEFAULT_PRIORITY_WEIGHT, DEFAULT_RECALL_BUDGET, DEFAULT_RECENCY_WEIGHT,
    DEFAULT_RELEVANCE_WEIGHT, LEXICAL_CALIBRATION, PREFIX_LEAST, RELEVANCE_FLOOR, UNDATED_RECENCY,
};
pub use render::render;
pub use save::{is_sentinel, plan_save, SavePlan, SaveStatus, NO_OP_SENTINELS};
pub use span::{LineIndex, Position, Range, Span};
pub use validate::{validate, Report};

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
