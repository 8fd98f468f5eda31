//! The merge corpus (tests/merge-corpus/, its README says the format): each
//! scenario merged natively, its result compared with what the file
//! expects. The package runs the same files (test-js/merge-corpus.test.mjs),
//! and the git merge driver too, against plain git.

use std::fmt::Write as _;
use std::path::Path;

use memdoc::{merge, Conflict, ConflictSide};

/// A scenario's blocks: the `@@` header lines and the text under each.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("@@ ") {
            out.push((header.trim_end().to_owned(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

fn side(label: &str, side: Option<&ConflictSide>, out: &mut String) {
    for line in side.map_or(&[][..], |s| &s.lines) {
        let _ = writeln!(out, "{label}: {line}");
    }
}

/// The conflicts as the corpus writes them.
fn written(conflicts: &[Conflict]) -> Vec<(String, String)> {
    conflicts
        .iter()
        .map(|c| {
            let mut body = String::new();
            side("base", c.base.as_ref(), &mut body);
            side("ours", c.ours.as_ref(), &mut body);
            side("theirs", c.theirs.as_ref(), &mut body);
            (format!("conflict {} {}", c.kind.as_str(), c.section), body)
        })
        .collect()
}

#[test]
fn every_scenario_merges_as_the_corpus_expects() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/merge-corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 30,
        "the corpus has {} scenarios",
        files.len()
    );
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let blocks = blocks(&text);
        let get = |name: &str| {
            blocks
                .iter()
                .find(|(h, _)| h == name)
                .map(|(_, body)| body.as_str())
        };
        let (base, ours, theirs) = (
            get("base").unwrap(),
            get("ours").unwrap(),
            get("theirs").unwrap(),
        );
        let m = merge(base, ours, theirs);
        let name = file.file_name().unwrap().to_string_lossy();
        let expected_conflicts: Vec<(String, String)> = blocks
            .iter()
            .filter(|(h, _)| h.starts_with("conflict "))
            .cloned()
            .collect();
        let (content, clean) = match get("merged") {
            Some(merged) => (merged, true),
            None => (get("content").expect("merged or content"), false),
        };
        if m.clean != clean || written(&m.conflicts) != expected_conflicts {
            failures.push(format!("{name}: conflicts {:#?}", written(&m.conflicts)));
        }
        if format!("{}\n", m.content) != content {
            failures.push(format!("{name}: content\n{}", m.content));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
