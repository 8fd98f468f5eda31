//! One test per compaction step and rule (docs/ops.md), and the options.

use memdoc::{compact, render, section_priority, CompactOptions, Priority, RemovalReason, Scope};

fn team(target: usize) -> CompactOptions {
    CompactOptions {
        scope: Scope::Team,
        target,
        today: None,
    }
}

fn len(s: &str) -> usize {
    s.chars().count()
}

#[test]
fn a_document_that_fits_is_returned_canonical_and_untouched() {
    let text = "Sure:\n## Facts  \r\n- 2025-01-01: a\n- 2025-01-01: a";
    let c = compact(text, &team(1000));
    assert!(c.fits);
    assert_eq!(c.content, render(text), "should only canonicalize");
    assert!(
        c.removed.is_empty() && c.merged.is_empty(),
        "should remove nothing, not even duplicates"
    );
    assert_eq!(c.dropped.len(), 1, "the preamble is reported");
    assert_eq!((c.before, c.after), (len(&c.content), len(&c.content)));
}

#[test]
fn sections_with_the_same_normalized_title_are_merged_first_and_reported() {
    let text = "## Facts\n- 2025-01-01: a\n\n## Decisions\n- 2025-01-02: b\n\n## FACTS!\n- 2025-01-03: c\n- 2025-01-03: c";
    let target = len(&render(text)) - 1;
    let c = compact(text, &team(target));
    assert!(c.fits);
    assert_eq!(c.content, "## Facts\n- 2025-01-01: a\n- 2025-01-03: c\n- 2025-01-03: c\n\n## Decisions\n- 2025-01-02: b");
    assert!(c.removed.is_empty(), "merging was enough: duplicates stay");
    assert_eq!(c.merged.len(), 1);
    let m = &c.merged[0];
    assert_eq!((m.from.as_str(), m.into.as_str()), ("FACTS!", "Facts"));
    assert_eq!(m.from_span.slice(text), "## FACTS!");
    assert_eq!(m.into_span.slice(text), "## Facts");
}

#[test]
fn duplicates_up_to_white_space_and_case_go_and_the_newest_stays() {
    let text = "## Facts\n- 2025-01-01: Office in  Oslo\n- 2025-02-01: office in oslo\n- 2025-01-15: Team of six";
    let c = compact(text, &team(len(&render(text)) - 1));
    assert!(c.fits);
    assert_eq!(
        c.content,
        "## Facts\n- 2025-02-01: office in oslo\n- 2025-01-15: Team of six"
    );
    assert_eq!(c.removed.len(), 1);
    let r = &c.removed[0];
    assert_eq!(r.reason, RemovalReason::Duplicate);
    assert_eq!(
        (r.date.as_str(), r.text.as_str(), r.section.as_str()),
        ("2025-01-01", "Office in  Oslo", "Facts")
    );
    assert_eq!(r.span.slice(text), "- 2025-01-01: Office in  Oslo");
    assert_eq!(
        r.duplicate_of.as_ref().map(|e| &*e.date),
        Some("2025-02-01")
    );
}

#[test]
fn duplicates_of_the_same_date_keep_the_first() {
    let text = "## Facts\n- 2025-01-01: A\n- 2025-01-01: a";
    let c = compact(text, &team(len(&render(text)) - 1));
    assert_eq!(c.content, "## Facts\n- 2025-01-01: A");
}

#[test]
fn duplicates_in_different_sections_are_not_duplicates() {
    let text = "## Facts\n- 2025-01-01: a\n\n## Decisions\n- 2025-01-01: a";
    let c = compact(text, &team(len(&render(text)) - 1));
    assert!(c.removed.iter().all(|r| r.reason == RemovalReason::Oldest));
}

const TEAM: &str = "## Product Decisions\n- 2024-01-01: d-old\n- 2025-01-01: d-new\n\n## Project Facts\n- 2024-01-01: f-old\n- 2025-01-01: f-new\n\n## Misc\n- 2024-01-01: m-old\n\n## Current Priorities\n- 2025-06-01: p-new\n\n## Open Questions\n- 2024-06-01: q-old";

fn removal_order(text: &str, options: &CompactOptions) -> Vec<String> {
    compact(text, options)
        .removed
        .into_iter()
        .map(|r| r.text)
        .collect()
}

#[test]
fn team_entries_go_by_class_then_age() {
    let got = removal_order(TEAM, &team(1));
    assert_eq!(
        got,
        ["q-old", "p-new", "m-old", "f-old", "f-new", "d-old", "d-new"]
    );
    let c = compact(TEAM, &team(1));
    assert!(!c.fits, "headings alone exceed 1 code point");
    assert_eq!(c.content, "## Product Decisions\n\n## Project Facts\n\n## Misc\n\n## Current Priorities\n\n## Open Questions");
    assert_eq!(c.after, len(&c.content));
}

#[test]
fn removal_stops_as_soon_as_it_fits() {
    let full = len(&render(TEAM));
    // Removing q-old saves its line and its line break.
    let saved = len("\n- 2024-06-01: q-old");
    let c = compact(TEAM, &team(full - saved));
    assert!(c.fits);
    assert_eq!(removal_order(TEAM, &team(full - saved)), ["q-old"]);
    assert_eq!(c.after, full - saved);
    let c = compact(TEAM, &team(full - saved - 1));
    assert_eq!(c.removed.len(), 2, "one more is needed");
}

#[test]
fn user_scope_keeps_instructions_and_preferences_longest() {
    let text = "## Instructions\n- 2020-01-01: i\n\n## Preferences\n- 2020-01-01: p\n\n## Facts\n- 2025-01-01: f\n\n## Decisions\n- 2025-01-01: d";
    let user = CompactOptions {
        scope: Scope::User,
        target: 1,
        today: None,
    };
    assert_eq!(removal_order(text, &user), ["d", "f", "i", "p"]);
    assert_eq!(
        removal_order(text, &team(1)),
        ["i", "p", "f", "d"],
        "personal headings are unclassified in a team"
    );
}

#[test]
fn ties_go_in_document_order_and_today_caps_future_dates() {
    let text = "## Notes\n- 2099-01-01: typo year\n- 2025-01-01: first\n- 2025-01-01: second";
    assert_eq!(
        removal_order(text, &team(1)),
        ["first", "second", "typo year"]
    );
    let capped = CompactOptions {
        today: Some("2025-01-01".into()),
        ..team(1)
    };
    assert_eq!(
        removal_order(text, &capped),
        ["typo year", "first", "second"],
        "a future date counts as today"
    );
}

#[test]
fn raw_lines_and_headings_are_never_removed() {
    let text =
        "## Conventions\nAlways review.\n```\n- 2025-01-01: in a fence\n```\n- 2025-01-01: entry";
    let c = compact(text, &team(1));
    assert!(!c.fits);
    assert_eq!(
        c.content,
        "## Conventions\nAlways review.\n```\n- 2025-01-01: in a fence\n```"
    );
    assert_eq!(c.removed.len(), 1);
}

#[test]
fn removed_entries_of_merged_sections_name_their_own_section() {
    let text = "## Open Questions\n- 2025-01-01: a\n\n## Facts\n- 2025-01-01: f\n\n## open questions\n- 2024-01-01: b";
    let c = compact(text, &team(1));
    let got: Vec<(&str, &str)> = c
        .removed
        .iter()
        .map(|r| (r.section.as_str(), r.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("open questions", "b"),
            ("Open Questions", "a"),
            ("Facts", "f")
        ]
    );
    assert!(c
        .removed
        .iter()
        .all(|r| r.span.slice(text).ends_with(&r.text)));
}

#[test]
fn section_priority_follows_the_keyword_table() {
    let cases = [
        ("Engineering Conventions", Scope::Team, Priority::Core),
        ("Facts & Decisions", Scope::Team, Priority::Core),
        ("Project Facts", Scope::User, Priority::Facts),
        ("Artifacts", Scope::Team, Priority::Other),
        ("Open Questions", Scope::User, Priority::Transient),
        ("Current Priority", Scope::Team, Priority::Transient),
        ("Memory", Scope::Team, Priority::Other),
        ("Ｐｒｅｆｅｒｅｎｃｅｓ", Scope::User, Priority::Core),
    ];
    for (title, scope, want) in cases {
        assert_eq!(section_priority(title, scope), want, "{title}");
    }
}

#[test]
fn a_duplicate_section_ending_in_an_unclosed_fence_is_not_merged() {
    let text = "## Facts\n- 2025-01-01: a\n\n## Decisions\n- 2025-01-02: b\n\n## Facts\n```\ncode";
    let c = compact(text, &team(1));
    assert!(
        c.merged.is_empty(),
        "moving the fence up would swallow `## Decisions`"
    );
    assert_eq!(c.content, "## Facts\n\n## Decisions\n\n## Facts\n```\ncode");
}

#[test]
fn reasons_and_priorities_have_stable_strings_and_order() {
    let reasons = [RemovalReason::Duplicate, RemovalReason::Oldest].map(RemovalReason::as_str);
    assert_eq!(reasons, ["duplicate", "oldest"]);
    let classes = [
        Priority::Transient,
        Priority::Other,
        Priority::Facts,
        Priority::Core,
    ];
    assert_eq!(
        classes.map(Priority::as_str),
        ["transient", "other", "facts", "core"]
    );
    assert!(
        classes.windows(2).all(|w| w[0] < w[1]),
        "removal order is the Ord order"
    );
}
