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
pub use inject::{escape_reserved, injection_block, injection_pieces, RESERVED_TAGS};
pub use limits::{
    describe_number, thousands, usage, Level, Limits, Usage, DEFAULT_HARD_LIMIT, DEFAULT_SOFT_LIMIT,
};
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
    calibration, hybrid_recall, prepare_recall, recall, recall_items, Calibration, ItemVectors,
    Measure, OmitReason, OmittedItem, PreparedMemory, PreparedRecall, PriorityMeasure, Recall,
    RecallOptions, RecallTotals, RecallVectors, RecallWeights, RecalledItem, RecencyMeasure, Why,
    BM25_B, BM25_K1, CALIBRATIONS, DEFAULT_CALIBRATION, DEFAULT_HALF_LIFE_DAYS,
    DEFAULT_PRIORITY_WEIGHT, DEFAULT_RECALL_BUDGET, DEFAULT_RECENCY_WEIGHT,
    DEFAULT_RELEVANCE_WEIGHT, LEXICAL_CALIBRATION, PREFIX_LEAST, RELEVANCE_FLOOR, UNDATED_RECENCY,
};
pub use render::render;
pub use save::{is_sentinel, plan_save, plan_save_with, SavePlan, SaveStatus, NO_OP_SENTINELS};
pub use span::{LineIndex, Position, Range, Span};

// Text in the units JavaScript counts, and the folds of recall and
// headings, done as the engine does them (src/fast/): for the npm module's
// crate (bindings/wasm/), whose results must count and fold exactly as the
// engine does, and for any other host that counts in UTF-16.
pub use fast::{
    contains_replacement, eq, to_lowercase, to_nfkc_lowercase_each, utf16_len, utf16_offset,
    utf16_offset_back,
};
// In WebAssembly, the host's NFKC and lower-casing, which the module
// installs when it starts (src/fast/case.rs says why).
#[cfg(target_arch = "wasm32")]
pub use fast::{install_host_folds, HostFolds};
pub use validate::{validate, validate_with, PreviousHeadings, Report};

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
