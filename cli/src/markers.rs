//! `memdoc merge BASE OURS THEIRS`, git's merge driver: the engine's
//! three-way merge in the file form, and where it has conflicts, each
//! conflicting part between git's markers (the `diff3` style: ours, base,
//! theirs), so that git, editors and people resolve them as they resolve
//! any conflict. Each conflict's block replaces ours' version of that part
//! in the merged document (the merge's `content` holds ours' version of
//! every conflicting part); a part ours does not hold (ours deleted it) is
//! placed at the end of its section, or of the document when ours removed
//! the whole section. Every conflict gets its block; nothing of any side is
//! dropped but the preamble lines the merge never keeps, which
//! [`summary`] lists.

use std::fmt::Write as _;

use memdoc::{merge, Conflict, ConflictKind, ConflictSide, MergeResult};

use super::file::with_final_break;
use super::printable;

/// What the merge driver writes and says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The text for OURS: the merged memory in its file form, with conflict
    /// markers when it is not clean.
    pub content: String,
    /// No conflict.
    pub clean: bool,
    /// Lines for standard error: the conflicts and the dropped preamble
    /// (empty when clean and nothing was dropped).
    pub summary: String,
}

/// Merge `ours` and `theirs` from `base`; `file` names OURS in the summary.
///
/// ```
/// let base = "## Notes\nold";
/// let merged = memdoc_cli::markers::merged("M.md", base, "## Notes\nours", "## Notes\ntheirs");
/// assert!(!merged.clean);
/// assert_eq!(
///     merged.content,
///     "## Notes\n<<<<<<< ours\nours\n||||||| base\nold\n=======\ntheirs\n>>>>>>> theirs\n"
/// );
/// ```
#[must_use]
pub fn merged(file: &str, base: &str, ours: &str, theirs: &str) -> Merged {
    let result = merge(base, ours, theirs);
    let content = if result.clean {
        with_final_break(result.content.clone())
    } else {
        with_markers(&result)
    };
    Merged {
        content,
        clean: result.clean,
        summary: summary(file, &result),
    }
}

fn with_markers(result: &MergeResult) -> String {
    let mut lines: Vec<String> = result.content.lines().map(str::to_owned).collect();
    // Blocks placed at the end of the document, after everything else.
    let mut trailing: Vec<String> = Vec::new();
    // Where the previous conflict's block ended: conflicts come in the order
    // of the merged sections, so each is looked for after it.
    let mut from = 0;
    for conflict in &result.conflicts {
        let block = block(conflict);
        let heading = find_heading(&lines, from, &conflict.section);
        let ours: &[String] = conflict.ours.as_ref().map_or(&[], |o| &o.lines);
        let place = match (heading, conflict.kind, ours.is_empty()) {
            (Some(h), _, false) => find_run(&lines, h, ours).map(|at| (at, ours.len())),
            (Some(h), ConflictKind::Lines | ConflictKind::Entry, true) => {
                Some((section_end(&lines, h), 0))
            }
            _ => None,
        };
        if let Some((at, len)) = place {
            let count = block.len();
            lines.splice(at..at + len, block);
            from = at + count;
        } else {
            if !trailing.is_empty() || lines.last().is_some_and(|l| !l.is_empty()) {
                trailing.push(String::new());
            }
            trailing.extend(block);
        }
    }
    lines.extend(trailing);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn side(side: Option<&ConflictSide>) -> &[String] {
    side.map_or(&[], |s| &s.lines)
}

fn block(conflict: &Conflict) -> Vec<String> {
    let mut block = vec!["<<<<<<< ours".to_owned()];
    block.extend(side(conflict.ours.as_ref()).iter().cloned());
    block.push("||||||| base".to_owned());
    block.extend(side(conflict.base.as_ref()).iter().cloned());
    block.push("=======".to_owned());
    block.extend(side(conflict.theirs.as_ref()).iter().cloned());
    block.push(">>>>>>> theirs".to_owned());
    block
}

/// The line of the section titled `title` at or after `from`; the start of
/// the document for the implicit section, which has no heading.
fn find_heading(lines: &[String], from: usize, title: &str) -> Option<usize> {
    let heading = format!("## {title}");
    lines
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, line)| **line == heading)
        .map(|(at, _)| at)
        .or_else(|| (title == memdoc::IMPLICIT_TITLE && from == 0).then_some(0))
}

/// Where `run` starts as consecutive lines at or after `from`.
fn find_run(lines: &[String], from: usize, run: &[String]) -> Option<usize> {
    (from..lines.len()).find(|&at| lines.get(at..at + run.len()) == Some(run))
}

/// Where the lines of the section whose heading is at `heading` end: before
/// the next heading, and before the blank line that separates it.
fn section_end(lines: &[String], heading: usize) -> usize {
    let next = (heading + 1..lines.len())
        .find(|&at| lines[at].starts_with("## "))
        .unwrap_or(lines.len());
    let mut end = next;
    while end > heading + 1 && lines[end - 1].is_empty() {
        end -= 1;
    }
    end
}

/// One line per conflict and one for what the merge dropped.
fn summary(file: &str, result: &MergeResult) -> String {
    let file = printable(file);
    let mut out = String::new();
    if !result.clean {
        let n = result.conflicts.len();
        let _ = writeln!(
            out,
            "memdoc: {file}: {n} conflict{} (marked with <<<<<<< ours and >>>>>>> theirs):",
            if n == 1 { "" } else { "s" }
        );
        for conflict in &result.conflicts {
            let what = match conflict.kind {
                ConflictKind::Entry => {
                    "entry changed differently on both sides, or changed and removed"
                }
                ConflictKind::Lines => "lines changed differently on both sides",
                ConflictKind::Title => "title rewritten differently on both sides",
                ConflictKind::SectionRemoved => "section removed on one side, changed on the other",
            };
            let _ = writeln!(
                out,
                "memdoc:   section {}: {what}",
                memdoc::Quoted(&conflict.section)
            );
        }
    }
    for dropped in &result.dropped {
        let _ = writeln!(
            out,
            "memdoc: {file}: dropped a line before the first heading of {}: {}",
            dropped.side.as_str(),
            memdoc::Quoted(&dropped.text)
        );
    }
    out
}
