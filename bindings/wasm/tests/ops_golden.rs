//! Golden scenarios for realistic team and user memories: each directory of
//! `tests/fixtures/merge/` (base, ours, theirs) and `tests/fixtures/compact/`
//! (input, options) has the expected canonical output and summary written by
//! hand, and the full JavaScript view is pinned as an insta snapshot.
// proptest and insta are native-only dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::Path;

use memdoc::{compact, merge};
use memdoc_wasm::js::compact::CompactionView;
use memdoc_wasm::js::input::CompactOptionsInput;
use memdoc_wasm::js::merge::MergeResultView;

/// Run `check` on every scenario directory of `tests/fixtures/{kind}/` (the
/// ones holding `marker`), each even when an earlier one failed: insta's
/// `glob!` collects snapshot failures, and `check` returns the other
/// mismatches, which are printed at once and asserted at the end. Returns
/// how many scenarios ran.
fn each_scenario(kind: &str, marker: &str, mut check: impl FnMut(&Path) -> Vec<String>) -> usize {
    let mut count = 0;
    let mut failures = Vec::new();
    insta::glob!(
        "../../../tests/fixtures",
        &format!("{kind}/*/{marker}"),
        |path| {
            count += 1;
            let dir = path.parent().expect("a scenario file is in its directory");
            let mut settings = insta::Settings::clone_current();
            // The snapshots are named for their scenario already.
            settings.remove_snapshot_suffix();
            settings.bind(|| {
                for failure in check(dir) {
                    eprintln!("{kind} {}: {failure}", name(dir));
                    failures.push(format!("{}: {failure}", name(dir)));
                }
            });
        }
    );
    assert!(
        failures.is_empty(),
        "{kind} scenarios failed:\n{}",
        failures.join("\n")
    );
    count
}

/// `Some(mismatch)` when `got` is not `want`.
fn differs<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Option<String> {
    (got != want).then(|| format!("{what}: got {got:?}, want {want:?}"))
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
    let count = each_scenario("merge", "base.md", |dir| {
        let (base, ours, theirs) = (
            read(dir, "base.md"),
            read(dir, "ours.md"),
            read(dir, "theirs.md"),
        );
        let result = merge(&base, &ours, &theirs);
        let expected: serde_json::Value =
            serde_json::from_str(&read(dir, "expected.json")).expect("json");
        let view = MergeResultView::new(&result, &base, &ours, &theirs);
        insta::assert_json_snapshot!(format!("merge-{}", name(dir)), view);
        [
            differs("content", result.content, read(dir, "expected.md")),
            differs(
                "clean",
                serde_json::Value::Bool(result.clean),
                expected["clean"].clone(),
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    });
    assert!(count >= 6, "at least six merge scenarios, found {count}");
}

#[test]
fn compact_scenarios() {
    let count = each_scenario("compact", "input.md", |dir| {
        let input = read(dir, "input.md");
        let options: CompactOptionsInput =
            serde_json::from_str(&read(dir, "options.json")).expect("options");
        let options = options.resolve().expect("valid options");
        let result = compact(&input, &options);
        let expected: serde_json::Value =
            serde_json::from_str(&read(dir, "expected.json")).expect("json");
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
        let view = CompactionView::new(&result, &input);
        insta::assert_json_snapshot!(format!("compact-{}", name(dir)), view);
        [
            differs("content", result.content, read(dir, "expected.md")),
            differs(
                "fits",
                serde_json::Value::Bool(result.fits),
                expected["fits"].clone(),
            ),
            differs(
                "removed",
                serde_json::json!(removed),
                expected["removed"].clone(),
            ),
            differs(
                "merged",
                serde_json::json!(merged),
                expected["merged"].clone(),
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    });
    assert!(
        count >= 4,
        "at least four compaction scenarios, found {count}"
    );
}
