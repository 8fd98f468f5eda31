//! The unified diff `memdoc fmt --check` prints: what a file holds against
//! its file form, three lines of context, with the header lines
//! `--- FILE` and `+++ FILE\t(canonical)` that `patch -p0` applies. Lines
//! are matched by the longest common subsequence the merge uses
//! (`merge::diff3::matches`).

use std::fmt::Write as _;

use memdoc::lcs_matches;

use super::printable;

const CONTEXT: usize = 3;

/// The unified diff from `before` to `after` for the file `file`; empty
/// when they are the same.
///
/// ```
/// let diff = memdoc_cli::diff::unified("M.md", "## A  \n- 2025-01-01: x", "## A\n- 2025-01-01: x\n");
/// assert_eq!(
///     diff,
///     "--- M.md\n+++ M.md\t(canonical)\n@@ -1,2 +1,2 @@\n-## A  \n-- 2025-01-01: x\n\\ No newline at end of file\n+## A\n+- 2025-01-01: x\n"
/// );
/// ```
#[must_use]
pub fn unified(file: &str, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    let (a, b) = (lines(before), lines(after));
    let ops = edits(&a, &b);
    let file = printable(file);
    let mut out = format!("--- {file}\n+++ {file}\t(canonical)\n");
    for hunk in hunks(&ops) {
        write_hunk(&mut out, &ops[hunk], &a, &b);
    }
    out
}

/// Lines with their line breaks (a lone CR stays inside its line).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same(usize, usize),
    Removed(usize),
    Added(usize),
}

fn edits(a: &[&str], b: &[&str]) -> Vec<Op> {
    let matched = lcs_matches(a, b);
    let mut ops = Vec::with_capacity(a.len().max(b.len()));
    let mut j = 0;
    for (i, m) in matched.into_iter().enumerate() {
        match m {
            Some(k) => {
                ops.extend((j..k).map(Op::Added));
                ops.push(Op::Same(i, k));
                j = k + 1;
            }
            None => ops.push(Op::Removed(i)),
        }
    }
    ops.extend((j..b.len()).map(Op::Added));
    // Within a run of changes, removals before additions.
    let mut ordered = Vec::with_capacity(ops.len());
    let mut added = Vec::new();
    for op in ops {
        match op {
            Op::Added(_) => added.push(op),
            Op::Removed(_) => ordered.push(op),
            Op::Same(..) => {
                ordered.append(&mut added);
                ordered.push(op);
            }
        }
    }
    ordered.append(&mut added);
    ops = ordered;
    ops
}

/// The ranges of `ops` each hunk shows: every change with up to three
/// unchanged lines around it, hunks closer than that joined.
fn hunks(ops: &[Op]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (k, op) in ops.iter().enumerate() {
        if matches!(op, Op::Same(..)) {
            continue;
        }
        let from = k.saturating_sub(CONTEXT);
        let to = (k + 1 + CONTEXT).min(ops.len());
        match out.last_mut() {
            Some(last) if from <= last.end => last.end = to,
            _ => out.push(from..to),
        }
    }
    out
}

fn write_hunk(out: &mut String, ops: &[Op], a: &[&str], b: &[&str]) {
    let old = ops.iter().filter(|op| !matches!(op, Op::Added(_))).count();
    let new = ops
        .iter()
        .filter(|op| !matches!(op, Op::Removed(_)))
        .count();
    let old_start = ops.iter().find_map(|op| match op {
        Op::Same(i, _) | Op::Removed(i) => Some(*i),
        Op::Added(_) => None,
    });
    let new_start = ops.iter().find_map(|op| match op {
        Op::Same(_, j) | Op::Added(j) => Some(*j),
        Op::Removed(_) => None,
    });
    // A side with no lines in the hunk is empty, numbered 0.
    let first =
        |start: Option<usize>, count: usize| start.map_or(0, |s| s + usize::from(count > 0));
    let _ = writeln!(
        out,
        "@@ -{},{old} +{},{new} @@",
        first(old_start, old),
        first(new_start, new)
    );
    for op in ops {
        let (mark, line) = match *op {
            Op::Same(i, _) => (' ', a[i]),
            Op::Removed(i) => ('-', a[i]),
            Op::Added(j) => ('+', b[j]),
        };
        out.push(mark);
        let bare = line.strip_suffix('\n').unwrap_or(line);
        out.push_str(&printable(bare.strip_suffix('\r').unwrap_or(bare)));
        out.push('\n');
        if !line.ends_with('\n') {
            out.push_str("\\ No newline at end of file\n");
        }
    }
}
