//! What the `memdoc` command prints, for its two front ends: the Rust binary
//! (`src/bin/memdoc/`) and the npm package's bin (`pkg-template/cli.js`,
//! through the WebAssembly exports of `cli/wasm/`). Each front end parses
//! its arguments and reads and writes files; every rule and every text
//! after that is here, once: the check report in its three formats
//! ([`check`]), the form a memory takes in a file and the unified diff of
//! `fmt --check` ([`file`], [`diff`]), the conflict markers of the merge
//! driver ([`markers`]), recall's explanation ([`explain`]), the expiry
//! policies of the command line and today's date ([`policy`]), the
//! one-line messages of failures and the hub's problems, with the exit
//! codes ([`messages`]), the hub's REST paths and answers ([`hub`],
//! [`hub_admin`]); for agents where they work, a repository's setup
//! ([`init`]), the hooks an agent runs ([`hook`]) and why an entry was not
//! recalled ([`trace`]). No I/O, nothing of JavaScript: docs/CLI.md is the
//! reference, and its tests compare the two front ends.
//!
//! It uses the `memdoc` crate through its public API only: the engine
//! never names the command line (ARCHITECTURE.md).
#![forbid(unsafe_code)]
#![warn(clippy::pedantic)]
#![allow(clippy::module_name_repetitions, clippy::must_use_candidate)]

pub mod check;
pub mod diff;
pub mod explain;
pub mod file;
pub mod hook;
pub mod hub;
pub mod hub_admin;
pub mod import;
pub mod init;
pub mod markers;
pub mod messages;
pub mod policy;
pub mod run;
pub mod trace;

/// What a command does once its inputs are read: what it prints on each
/// stream, what it writes to its file (`None`: the file stays as it is)
/// and its exit code. A command over several files is one outcome per file,
/// printed in order, its exit code the highest of theirs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    /// For standard output.
    pub stdout: String,
    /// For standard error.
    pub stderr: String,
    /// The new content of the command's file, if it changes.
    pub write: Option<String>,
    /// The exit code ([`exit`]).
    pub exit: i32,
}

impl Outcome {
    /// Just `stdout`, exit 0.
    #[must_use]
    pub fn printing(stdout: String) -> Self {
        Self {
            stdout,
            ..Self::default()
        }
    }

    /// A failure: one line on standard error and `exit`.
    #[must_use]
    pub fn failing(line: &str, exit: i32) -> Self {
        Self {
            stderr: format!("memdoc: {}\n", printable(line)),
            exit,
            ..Self::default()
        }
    }
}

/// The exit codes of the command (docs/CLI.md, "Exit codes").
pub mod exit {
    /// Done; nothing to report.
    pub const OK: i32 = 0;
    /// Findings: errors (or warnings with `--deny-warnings`), a file not in
    /// canonical form, a merge with conflicts, a save the hub refused (stale,
    /// conflicting or rejected), a compaction that does not fit.
    pub const FINDINGS: i32 = 1;
    /// A usage error, an unreadable or unwritable file, a bad option value,
    /// a missing `MEMDOC_HUB_URL` or `MEMDOC_HUB_KEY`.
    pub const USAGE: i32 = 2;
    /// The hub refused the request itself (a key, a role, something that
    /// does not exist, a malformed request, the rate limit).
    pub const HUB_REFUSED: i32 = 3;
    /// The hub could not be reached, or failed (5xx).
    pub const HUB_FAILED: i32 = 4;
}

/// `text` with the characters a terminal would act on (C0 controls but the
/// tab, DEL, C1 controls) shown as U+FFFD: a memory, a file name or a hub's
/// answer never moves the cursor or changes colours.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let acts = |c: char| (c < ' ' && c != '\t') || ('\u{7f}'..='\u{9f}').contains(&c);
    if text.chars().any(acts) {
        text.chars()
            .map(|c| if acts(c) { '\u{fffd}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}
