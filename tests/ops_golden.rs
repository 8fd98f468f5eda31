//! Golden scenarios for realistic team and user memories: each directory of
//! `tests/fixtures/merge/` (base, ours, theirs) and `tests/fixtures/compact/`
//! (input, options) has the expected canonical output and summary written by
//! hand, and the full JavaScript view is pinned as an insta snapshot.
// proptest and insta are native-only dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};

use memdoc::js::compact::CompactionView;
use memdoc::js::input::CompactOptionsInput;
use memdoc::js::merge::MergeResultView;
use memdoc::{compact, merge};

fn scenarios(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind);
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn read(dir: &Path, file: &str) -> String {
    fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()))
}

fn name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn merge_scenarios() {
    let dirs = scenarios("merge");
    assert!(dirs.len() >= 6, "at least six merge scenarios");
    for dir in dirs {
        let (base, ours, theirs) = (
            read(&dir, "base.md"),
            read(&dir, "ours.md"),
            read(&dir, "theirs.md"),
        );
        let result = merge(&base, &ours, &theirs);
        let expected: serde_json::Value =
            serde_json::from_str(&read(&dir, "expected.json")).expect("json");
        assert_eq!(
            result.content,
            read(&dir, "expected.md"),
            "{}: content",
            name(&dir)
        );
        assert_eq!(
            serde_json::Value::Bool(result.clean),
            expected["clean"],
            "{}: clean",
            name(&dir)
        );
        let view = MergeResultView::new(&result, &base, &ours, &theirs);
        insta::assert_json_snapshot!(format!("merge-{}", name(&dir)), view);
    }
}

#[test]
fn compact_scenarios() {
    let dirs = scenarios("compact");
    assert!(dirs.len() >= 4, "at least four compaction scenarios");
    for dir in dirs {
        let input = read(&dir, "input.md");
        let options: CompactOptionsInput =
            serde_json::from_str(&read(&dir, "options.json")).expect("options");
        let options = options.resolve().expect("valid options");
        let result = compact(&input, &options);
        let expected: serde_json::Value =
            serde_json::from_str(&read(&dir, "expected.json")).expect("json");
        assert_eq!(
            result.content,
            read(&dir, "expected.md"),
            "{}: content",
            name(&dir)
        );
        assert_eq!(
            serde_json::Value::Bool(result.fits),
            expected["fits"],
            "{}: fits",
            name(&dir)
        );
        let removed: Vec<String> = result
            .removed
            .iter()
            .map(|r| format!("{}: {}", r.reason.as_str(), r.text))
            .collect();
        let merged: Vec<String> = result
            .merged
            .iter()
            .map(|m| format!("{} -> {}", m.from, m.into))
            .collect();
        assert_eq!(
            serde_json::json!(removed),
            expected["removed"],
            "{}: removed",
            name(&dir)
        );
        assert_eq!(
            serde_json::json!(merged),
            expected["merged"],
            "{}: merged",
            name(&dir)
        );
        let view = CompactionView::new(&result, &input);
        insta::assert_json_snapshot!(format!("compact-{}", name(&dir)), view);
    }
}
