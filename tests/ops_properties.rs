//! Properties of `merge` and `compact` over generated memory documents: the
//! merge identities, disjoint edits merging cleanly, and compaction never
//! losing an entry it does not report.
// proptest and insta are native-only dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use memdoc::{compact, merge, parse, render, CompactOptions, Scope};
use proptest::prelude::*;

#[path = "common/compact_laws.rs"]
mod compact_laws;
#[path = "common/merge_laws.rs"]
mod merge_laws;

fn line() -> impl Strategy<Value = String> {
    line_from(vec!["", "note", "  indented", "- not an entry", "```"])
}

fn line_from(raw: Vec<&'static str>) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["## Decisions", "## Facts", "## Open Questions", "## decisions", "## Notes"]).prop_map(str::to_owned),
        6 => (1..=4u8, prop::sample::select(vec!["a", "b", "c", "A", "b  ", "long entry text"]))
            .prop_map(|(d, t)| format!("- 2025-01-0{d}: {t}")),
        2 => prop::sample::select(raw).prop_map(str::to_owned),
    ]
}

fn doc() -> impl Strategy<Value = String> {
    prop::collection::vec(line(), 0..24).prop_map(|lines| lines.join("\n"))
}

/// Without code fences: a fence left open would turn both sides' additions
/// into raw lines at the same place, which is a genuine conflict.
fn doc_without_fences() -> impl Strategy<Value = String> {
    prop::collection::vec(
        line_from(vec!["", "note", "  indented", "- not an entry"]),
        0..24,
    )
    .prop_map(|lines| lines.join("\n"))
}

fn fenced_line() -> impl Strategy<Value = String> {
    line_from(vec![
        "",
        "note",
        "```",
        "~~~",
        "```sh",
        "````",
        "  ```",
        "- 2025-01-09: fenced?",
        "## fenced?",
    ])
}

/// Many fence delimiters, and entries and headings that a fence may hide.
fn fenced_doc() -> impl Strategy<Value = String> {
    prop::collection::vec(fenced_line(), 0..24).prop_map(|lines| lines.join("\n"))
}

fn entries(text: &str) -> HashMap<(String, String), usize> {
    let mut out = HashMap::new();
    for e in parse(text).entries() {
        *out.entry((e.date.to_string(), e.text.to_string()))
            .or_insert(0) += 1;
    }
    out
}

/// 400 cases per property, or `PROPTEST_CASES` when it is set (to run the
/// properties longer than a test run does).
fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_some() {
        default
    } else {
        ProptestConfig {
            cases: 400,
            ..default
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn merge_with_theirs_unchanged_is_ours(b in doc(), x in doc()) {
        let m = merge(&b, &x, &b);
        prop_assert!(m.clean, "{:?}", m.conflicts);
        prop_assert_eq!(m.content, render(&x));
    }

    #[test]
    fn merge_with_ours_unchanged_is_theirs(b in doc(), y in doc()) {
        let m = merge(&b, &b, &y);
        prop_assert!(m.clean, "{:?}", m.conflicts);
        prop_assert_eq!(m.content, render(&y));
    }

    #[test]
    fn merge_of_identical_edits_is_that_edit(b in doc(), x in doc()) {
        let m = merge(&b, &x, &x);
        prop_assert!(m.clean, "{:?}", m.conflicts);
        prop_assert_eq!(m.content, render(&x));
    }

    #[test]
    fn merge_is_canonical_and_never_panics(b in doc(), x in doc(), y in doc()) {
        let m = merge(&b, &x, &y);
        if let Err(broken) = merge_laws::check_merge(&b, &x, &y, &m) {
            prop_assert!(false, "{}\n{}", broken, m.content);
        }
    }

    /// Fences of every kind around and between both sides' edits: a clean
    /// result, parsed again, holds every section and entry of both sides
    /// (that the other did not remove), or the merge is not clean.
    #[test]
    fn a_clean_merge_keeps_both_sides_structure_across_fences(
        b in fenced_doc(), x in fenced_doc(), y in fenced_doc(),
    ) {
        let m = merge(&b, &x, &y);
        if let Err(broken) = merge_laws::check_merge(&b, &x, &y, &m) {
            prop_assert!(false, "{}\n{}", broken, m.content);
        }
    }

    #[test]
    fn the_identities_hold_across_fences(b in fenced_doc(), x in fenced_doc()) {
        if let Err(broken) = merge_laws::check_identities(&b, &x) {
            prop_assert!(false, "{}", broken);
        }
    }

    #[test]
    fn edits_of_one_fenced_base_keep_both_sides_structure(
        b in fenced_doc(),
        edits in prop::collection::vec((any::<bool>(), 0usize..40, fenced_line(), any::<bool>()), 1..6),
    ) {
        // Related inputs: both sides are small edits of the same base.
        let lines: Vec<String> = b.split('\n').map(str::to_owned).collect();
        let mut sides = [lines.clone(), lines];
        for (which, at, line, delete) in edits {
            let side = &mut sides[usize::from(which)];
            let at = at % (side.len() + 1);
            if delete && at < side.len() {
                side.remove(at);
            } else {
                side.insert(at, line);
            }
        }
        let [x, y] = sides.map(|l| l.join("\n"));
        let m = merge(&b, &x, &y);
        if let Err(broken) = merge_laws::check_merge(&b, &x, &y, &m) {
            prop_assert!(false, "{}\n{}", broken, m.content);
        }
    }

    #[test]
    fn disjoint_additions_are_both_kept(b in doc_without_fences(), i in 0usize..30, j in 0usize..30) {
        let lines: Vec<&str> = std::iter::once("## Start").chain(b.split('\n')).collect();
        let insert = |at: usize, line: &str| {
            let mut l: Vec<&str> = lines.clone();
            l.insert(1 + at % lines.len(), line);
            l.join("\n")
        };
        let base = lines.join("\n");
        let ours = insert(i, "- 2025-05-01: ours addition");
        let theirs = format!("{}\n\n## Theirs New\n- 2025-05-03: theirs new", insert(j, "- 2025-05-02: theirs addition"));
        let m = merge(&base, &ours, &theirs);
        prop_assert!(m.clean, "{:?}", m.conflicts);
        for added in ["- 2025-05-01: ours addition", "- 2025-05-02: theirs addition", "## Theirs New", "- 2025-05-03: theirs new"] {
            prop_assert!(m.content.split('\n').any(|l| l == added), "{} missing from {}", added, m.content);
        }
        let merged = entries(&m.content);
        for (k, n) in entries(&base) {
            prop_assert!(merged.get(&k).copied().unwrap_or(0) >= n, "base entry {:?} lost", k);
        }
    }

    #[test]
    fn compaction_reports_every_entry_it_removes(
        text in doc(),
        target in 1usize..400,
        team in any::<bool>(),
        today in prop::option::of(prop::sample::select(vec!["2025-01-02", "2024-12-31"])),
    ) {
        let options = CompactOptions {
            scope: if team { Scope::Team } else { Scope::User },
            target,
            today: today.map(str::to_owned),
        };
        if let Err(broken) = compact_laws::check_compact(&text, &options) {
            prop_assert!(false, "{}", broken);
        }
    }
}

/// A large memory (250 sections, 25,000 entries, about 1 MB) merges and
/// compacts without quadratic work: the line diff is bounded, and compaction
/// measures O(log n) candidate sizes per step without rendering them.
#[test]
fn large_documents_merge_and_compact_in_bounded_time() {
    let mut base = String::new();
    for s in 0..250 {
        base.push_str(&format!("## Section {s}\n"));
        for e in 0..100 {
            base.push_str(&format!(
                "- 2025-01-{:02}: entry {s}-{e} with some text\n",
                e % 28 + 1
            ));
        }
        base.push('\n');
    }
    let ours = base.replace("entry 7-7 ", "entry 7-7 edited ");
    let theirs = format!("{base}## Added\n- 2025-02-01: new");
    let started = std::time::Instant::now();
    let m = merge(&base, &ours, &theirs);
    assert!(m.clean);
    assert!(
        m.content.contains("entry 7-7 edited")
            && m.content.ends_with("## Added\n- 2025-02-01: new")
    );
    let c = compact(
        &base,
        &CompactOptions {
            scope: Scope::Team,
            target: 25_000,
            today: None,
        },
    );
    assert!(c.fits && c.after <= 25_000);
    assert_eq!(
        c.removed.len() + parse(&c.content).entries().count(),
        25_000
    );
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
}
