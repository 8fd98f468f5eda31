//! The views of `compact`'s and `merge`'s results: camelCase, `null` where
//! a value is absent, ranges in UTF-16 units.

use memdoc::{compact, merge, CompactOptions, Scope};
use memdoc_wasm::js::compact::CompactionView;
use memdoc_wasm::js::merge::MergeResultView;

#[test]
fn a_compactions_view_is_camel_case_with_nulls_and_utf16_ranges() {
    let text = "😀 hi\n## Facts\n- 2025-01-01: é\n- 2025-01-02: É\n\n## facts\n- 2025-01-03: x";
    let c = compact(
        text,
        &CompactOptions {
            scope: Scope::Team,
            target: 1,
            today: None,
        },
    );
    let json = serde_json::to_value(CompactionView::new(&c, text)).expect("serializes");
    assert_eq!(json["fits"], false);
    assert_eq!(json["dropped"][0]["kind"], "raw");
    assert_eq!(
        json["dropped"][0]["range"]["end"]["offset"], 5,
        "the emoji counts 2"
    );
    assert_eq!(json["merged"][0]["fromRange"]["start"]["line"], 6);
    let dup = &json["removed"][0];
    assert_eq!(dup["reason"], "duplicate");
    assert_eq!(dup["duplicateOf"]["text"], "É");
    assert_eq!(dup["range"]["start"]["offset"], 15);
    let oldest = &json["removed"][1];
    assert_eq!(oldest["reason"], "oldest");
    assert_eq!(oldest["priority"], "facts");
    assert!(oldest["duplicateOf"].is_null(), "null, not missing");
}

#[test]
fn a_merges_view_is_camel_case_with_nulls_and_utf16_ranges() {
    let base = "## Notes\nété 😀 plan";
    let ours = "## Notes\nété 😀 plan A";
    let theirs = "## Notes\nété 😀 plan B";
    let m = merge(base, ours, theirs);
    let json =
        serde_json::to_value(MergeResultView::new(&m, base, ours, theirs)).expect("serializes");
    assert_eq!(json["clean"], false);
    let c = &json["conflicts"][0];
    assert_eq!(c["kind"], "lines");
    assert_eq!(c["ours"]["lines"][0], "été 😀 plan A");
    // "## Notes\n" is 9 UTF-16 units; the line "été 😀 plan A" is 13 (the emoji is 2).
    assert_eq!(c["ours"]["range"]["start"]["offset"], 9);
    assert_eq!(c["ours"]["range"]["end"]["offset"], 9 + 13);
    assert_eq!(c["ours"]["range"]["end"]["column"], 14);
    let m = merge(base, "## Other\n- 2025-01-01: x", base);
    let json = serde_json::to_value(MergeResultView::new(
        &m,
        base,
        "## Other\n- 2025-01-01: x",
        base,
    ))
    .expect("serializes");
    assert_eq!(json["dropped"], serde_json::json!([]));
    let conflicted = merge(base, "## Other", "## Notes\nchanged");
    let json = serde_json::to_value(MergeResultView::new(
        &conflicted,
        base,
        "## Other",
        "## Notes\nchanged",
    ))
    .expect("serializes");
    assert_eq!(json["conflicts"][0]["kind"], "section-removed");
    assert!(json["conflicts"][0]["ours"].is_null(), "null, not missing");
}
