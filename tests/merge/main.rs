//! One test per merge rule and conflict kind (docs/ops.md).

use memdoc::{merge, render, ConflictKind, Side};

mod fences;

const BASE: &str = "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays\n\n## Facts\n- 2025-03-03: Office is in Oslo";

fn add_line(doc: &str, section: &str, line: &str) -> String {
    let doc = memdoc::parse(doc);
    let mut out = String::new();
    for (i, s) in doc.sections.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        let mut one = memdoc::Document::default();
        one.sections.push(s.clone());
        out.push_str(&one.render());
        if s.title == section {
            out.push('\n');
            out.push_str(line);
        }
    }
    out
}

#[test]
fn an_entry_added_on_one_side_is_kept() {
    let ours = add_line(BASE, "Decisions", "- 2025-03-04: Ship behind flags");
    let m = merge(BASE, &ours, BASE);
    assert!(m.clean, "should be clean");
    assert_eq!(m.content, ours, "should keep ours' addition");
    let m = merge(BASE, BASE, &ours);
    assert_eq!(m.content, ours, "should keep theirs' addition");
}

#[test]
fn an_entry_removed_on_one_side_and_untouched_on_the_other_is_removed() {
    let ours = BASE.replace("- 2025-03-02: Deploy on Tuesdays\n", "");
    let theirs = add_line(BASE, "Facts", "- 2025-03-05: Team of six");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean);
    assert_eq!(
        m.content,
        "## Decisions\n- 2025-03-01: Use Postgres\n\n## Facts\n- 2025-03-03: Office is in Oslo\n- 2025-03-05: Team of six",
        "should drop the removed entry and keep theirs' addition"
    );
}

#[test]
fn an_entry_added_on_both_sides_appears_once() {
    let both = add_line(BASE, "Facts", "- 2025-03-05: Team of six");
    let m = merge(BASE, &both, &both);
    assert!(m.clean);
    assert_eq!(m.content, both, "should not double the entry");
}

#[test]
fn entries_added_at_the_same_place_come_base_then_ours_then_theirs() {
    let ours = add_line(BASE, "Decisions", "- 2025-03-09: Ours");
    let theirs = add_line(BASE, "Decisions", "- 2025-03-08: Theirs");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean, "entries added on both sides do not conflict");
    assert!(
        m.content.starts_with("## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays\n- 2025-03-09: Ours\n- 2025-03-08: Theirs\n"),
        "should order base, ours, theirs: {}",
        m.content
    );
}

#[test]
fn an_entry_edited_on_one_side_and_removed_on_the_other_conflicts() {
    let ours = BASE.replace("Deploy on Tuesdays", "Deploy on Wednesdays");
    let theirs = BASE.replace("- 2025-03-02: Deploy on Tuesdays\n", "");
    let m = merge(BASE, &ours, &theirs);
    assert_eq!(m.conflicts.len(), 1, "{:?}", m.conflicts);
    let c = &m.conflicts[0];
    assert_eq!(
        (c.kind, c.section.as_str()),
        (ConflictKind::Entry, "Decisions")
    );
    let lines = |s: &Option<memdoc::ConflictSide>| s.as_ref().unwrap().lines.clone();
    assert_eq!(lines(&c.base), ["- 2025-03-02: Deploy on Tuesdays"]);
    assert_eq!(lines(&c.ours), ["- 2025-03-02: Deploy on Wednesdays"]);
    assert!(lines(&c.theirs).is_empty(), "theirs removed it");
    let theirs_side = c.theirs.as_ref().unwrap().span;
    assert_eq!(
        theirs_side.start, theirs_side.end,
        "an empty range where it was"
    );
    assert_eq!(
        &theirs[..theirs_side.start],
        "## Decisions\n- 2025-03-01: Use Postgres",
        "after the line before it"
    );
    assert!(
        m.content.contains("Deploy on Wednesdays") && !m.content.contains("Tuesdays"),
        "ours' version"
    );
}

#[test]
fn one_entry_edited_differently_on_both_sides_is_one_conflict_never_two_entries() {
    let ours = BASE.replace("Use Postgres", "Use Postgres 17");
    let theirs = BASE.replace("Use Postgres", "Use Postgres 16.4 (pinned)");
    let m = merge(BASE, &ours, &theirs);
    assert_eq!(m.conflicts.len(), 1, "{:?}", m.conflicts);
    assert_eq!(m.conflicts[0].kind, ConflictKind::Entry);
    assert_eq!(
        m.content.matches("Use Postgres").count(),
        1,
        "{}",
        m.content
    );
    let (_, marked) = memdoc::merge_marked(BASE, &ours, &theirs, ["ours", "theirs"]);
    assert!(
        marked.as_deref().unwrap().starts_with("## Decisions\n<<<<<<< ours\n- 2025-03-01: Use Postgres 17\n=======\n- 2025-03-01: Use Postgres 16.4 (pinned)\n>>>>>>> theirs\n- 2025-03-02: Deploy on Tuesdays"),
        "{marked:?}"
    );
}

#[test]
fn an_entry_edited_on_one_side_takes_the_edit_wherever_the_other_moved_it() {
    let ours = BASE.replace("Deploy on Tuesdays", "Deploy on Wednesdays");
    let theirs = "## Decisions\n- 2025-03-02: Deploy on Tuesdays\n- 2025-03-01: Use Postgres\n\n## Facts\n- 2025-03-03: Office is in Oslo";
    let m = merge(BASE, &ours, theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert!(
        m.content.starts_with(
            "## Decisions\n- 2025-03-02: Deploy on Wednesdays\n- 2025-03-01: Use Postgres\n"
        ),
        "{}",
        m.content
    );
}

#[test]
fn a_section_renamed_on_one_side_takes_the_others_entries_and_is_never_doubled() {
    let ours = BASE.replace("## Decisions", "## Choices");
    let theirs = add_line(BASE, "Decisions", "- 2025-03-04: Ship behind flags");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert!(m.content.starts_with("## Choices\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays\n- 2025-03-04: Ship behind flags\n\n## Facts"), "{}", m.content);
    let both = merge(
        BASE,
        &ours,
        &BASE.replace("## Decisions", "## Architecture"),
    );
    assert_eq!(both.conflicts.len(), 1);
    assert_eq!(both.conflicts[0].kind, ConflictKind::Title);
    assert_eq!(
        both.content.matches("Use Postgres").count(),
        1,
        "{}",
        both.content
    );
}

#[test]
fn an_entry_moved_on_one_side_is_neither_lost_nor_doubled() {
    let ours = "## Decisions\n- 2025-03-02: Deploy on Tuesdays\n- 2025-03-01: Use Postgres\n\n## Facts\n- 2025-03-03: Office is in Oslo";
    let theirs = add_line(BASE, "Decisions", "- 2025-03-04: New");
    let m = merge(BASE, ours, &theirs);
    assert!(m.clean);
    assert_eq!(
        m.content.matches("Use Postgres").count(),
        1,
        "{}",
        m.content
    );
    assert_eq!(m.content.matches("Deploy on Tuesdays").count(), 1);
    assert!(m.content.contains("2025-03-04: New"));
}

#[test]
fn sections_added_on_either_side_are_kept_and_once_when_identical() {
    let ours = format!("{BASE}\n\n## Open Questions\n- 2025-03-06: Which CI?");
    let theirs = format!("{BASE}\n\n## Open Questions\n- 2025-03-06: Which CI?\n\n## Conventions\n- 2025-03-07: rustfmt");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean);
    assert_eq!(
        m.content, theirs,
        "should contain both new sections, the shared one once"
    );
}

#[test]
fn sections_keep_base_order_then_ours_new_then_theirs_new() {
    let ours = format!("## Ours New\n- 2025-04-01: o\n\n{BASE}");
    let theirs = format!("## Theirs New\n- 2025-04-02: t\n\n{BASE}");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean);
    let titles: Vec<String> = memdoc::parse(&m.content)
        .sections
        .iter()
        .map(|s| s.title.to_string())
        .collect();
    assert_eq!(
        titles,
        ["Ours New", "Theirs New", "Decisions", "Facts"],
        "both inserted at the top: ours first"
    );
}

#[test]
fn a_section_reordered_on_one_side_keeps_that_order() {
    let ours = "## Facts\n- 2025-03-03: Office is in Oslo\n\n## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays";
    let m = merge(BASE, ours, BASE);
    assert_eq!(m.content, ours, "should take ours' order");
}

#[test]
fn a_section_removed_on_one_side_and_untouched_on_the_other_is_removed() {
    let ours = "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays";
    let theirs = add_line(BASE, "Decisions", "- 2025-03-04: More");
    let m = merge(BASE, ours, &theirs);
    assert!(m.clean);
    assert!(!m.content.contains("## Facts"), "should remove the section");
    assert!(m.content.contains("More"));
}

#[test]
fn a_section_removed_by_theirs_and_changed_by_ours_conflicts_and_keeps_ours() {
    let ours = add_line(BASE, "Facts", "- 2025-03-05: Team of six");
    let theirs = "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays";
    let m = merge(BASE, &ours, theirs);
    assert!(!m.clean);
    assert_eq!(m.content, ours, "should hold ours' version");
    let c = &m.conflicts[0];
    assert_eq!(c.kind, ConflictKind::SectionRemoved);
    assert_eq!(c.section, "Facts");
    assert!(c.theirs.is_none(), "theirs removed it");
    let o = c.ours.as_ref().expect("ours has it");
    assert_eq!(
        o.lines,
        [
            "## Facts",
            "- 2025-03-03: Office is in Oslo",
            "- 2025-03-05: Team of six"
        ]
    );
    assert_eq!(
        o.span.slice(&ours),
        "## Facts\n- 2025-03-03: Office is in Oslo\n- 2025-03-05: Team of six"
    );
    assert_eq!(
        c.base.as_ref().map(|b| b.span.slice(BASE)),
        Some("## Facts\n- 2025-03-03: Office is in Oslo")
    );
}

#[test]
fn a_section_removed_by_ours_and_changed_by_theirs_conflicts_and_stays_removed() {
    let ours = "## Decisions\n- 2025-03-01: Use Postgres\n- 2025-03-02: Deploy on Tuesdays";
    let theirs = add_line(BASE, "Facts", "- 2025-03-05: Team of six");
    let m = merge(BASE, ours, &theirs);
    assert!(!m.clean);
    assert_eq!(m.content, ours, "should hold ours' version (removed)");
    assert_eq!(m.conflicts[0].kind, ConflictKind::SectionRemoved);
    assert!(m.conflicts[0].ours.is_none());
    assert!(m.conflicts[0].theirs.is_some());
}

const NOTES: &str =
    "## Conventions\nReview rules:\nTwo approvals needed\n- 2025-01-01: Use rustfmt";

#[test]
fn a_raw_line_changed_on_one_side_is_taken() {
    let ours = NOTES.replace("Two approvals", "One approval");
    let theirs = format!("{NOTES}\n- 2025-01-02: Use clippy");
    let m = merge(NOTES, &ours, &theirs);
    assert!(m.clean);
    assert_eq!(m.content, "## Conventions\nReview rules:\nOne approval needed\n- 2025-01-01: Use rustfmt\n- 2025-01-02: Use clippy");
}

#[test]
fn a_raw_line_changed_differently_on_both_sides_conflicts() {
    let ours = NOTES.replace("Two approvals", "One approval");
    let theirs = NOTES.replace("Two approvals", "Three approvals");
    let m = merge(NOTES, &ours, &theirs);
    assert!(!m.clean);
    assert_eq!(m.content, render(&ours), "should hold ours' version");
    assert_eq!(m.conflicts.len(), 1);
    let c = &m.conflicts[0];
    assert_eq!(c.kind, ConflictKind::Lines);
    assert_eq!(c.section, "Conventions");
    let side =
        |s: &Option<memdoc::ConflictSide>| s.as_ref().map(|s| s.lines.clone()).unwrap_or_default();
    assert_eq!(side(&c.base), ["Two approvals needed"]);
    assert_eq!(side(&c.ours), ["One approval needed"]);
    assert_eq!(side(&c.theirs), ["Three approvals needed"]);
    assert_eq!(
        c.theirs.as_ref().map(|s| s.span.slice(&theirs)),
        Some("Three approvals needed")
    );
}

#[test]
fn raw_lines_deleted_on_one_side_and_edited_on_the_other_conflict_with_an_empty_located_side() {
    let ours = NOTES.replace("Two approvals needed\n", "");
    let theirs = NOTES.replace("Two approvals", "Three approvals");
    let m = merge(NOTES, &ours, &theirs);
    assert!(!m.clean);
    let o = m.conflicts[0].ours.as_ref().expect("ours side");
    assert!(o.lines.is_empty(), "ours deleted the line");
    assert_eq!(o.span.start, o.span.end, "an empty span");
    assert_eq!(
        &ours[..o.span.start],
        "## Conventions\nReview rules:",
        "located after the line before"
    );
}

#[test]
fn raw_lines_added_on_both_sides_in_different_places_do_not_conflict() {
    let ours = NOTES.replace("Review rules:", "Review rules (updated):");
    let theirs = format!("{NOTES}\nSee the wiki");
    let m = merge(NOTES, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert!(m.content.contains("Review rules (updated):") && m.content.contains("See the wiki"));
}

#[test]
fn entries_added_behind_different_blank_lines_do_not_conflict() {
    // Found by the property `disjoint_additions_are_both_kept`. Base's blank
    // lines are trailing (not content); each side adds an entry at the same
    // place behind a different number of them. Blank lines outside fences
    // are layout: both entries are kept, with ours' layout.
    let rest = "\n## Decisions".repeat(6);
    let base = format!("## Start\n\n{rest}");
    let ours = format!("## Start\n\n- 2025-05-01: ours addition\n{rest}");
    let theirs = format!(
        "## Start\n\n\n- 2025-05-02: theirs addition{rest}\n\n## Theirs New\n- 2025-05-03: theirs new"
    );
    let m = merge(&base, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        m.content,
        format!(
            "## Start\n\n- 2025-05-01: ours addition\n- 2025-05-02: theirs addition{}\n\n## Theirs New\n- 2025-05-03: theirs new",
            "\n\n## Decisions".repeat(6)
        )
    );
    // A blank line inside a fence is code: changed differently on both
    // sides, it still conflicts.
    let base = "## Code\n```\nx\n```";
    let ours = "## Code\n```\n\nx\n```";
    let theirs = "## Code\n```\n\n\nx\n```";
    let m = merge(base, ours, theirs);
    assert!(!m.clean, "{}", m.content);
    assert_eq!(m.conflicts[0].kind, ConflictKind::Lines);
}

#[test]
fn a_title_changed_on_one_side_is_taken_and_on_both_conflicts() {
    let ours = BASE.replace("## Facts", "## FACTS");
    let m = merge(BASE, &ours, BASE);
    assert!(m.clean);
    assert!(m.content.contains("## FACTS"));
    let theirs = BASE.replace("## Facts", "## facts");
    let m = merge(BASE, &ours, &theirs);
    assert!(!m.clean);
    assert_eq!(m.conflicts[0].kind, ConflictKind::Title);
    assert!(m.content.contains("## FACTS"), "ours' title");
    assert_eq!(
        m.conflicts[0]
            .theirs
            .as_ref()
            .map(|s| s.span.slice(&theirs)),
        Some("## facts")
    );
}

#[test]
fn repeated_titles_are_matched_by_rank() {
    let base = "## Notes\n- 2025-01-01: a\n\n## Notes\n- 2025-01-02: b";
    let ours = "## Notes\n- 2025-01-01: a\n- 2025-01-03: c\n\n## Notes\n- 2025-01-02: b";
    let theirs = "## Notes\n- 2025-01-01: a\n\n## Notes\n- 2025-01-02: b\n- 2025-01-04: d";
    let m = merge(base, ours, theirs);
    assert!(m.clean);
    assert_eq!(
        m.content,
        "## Notes\n- 2025-01-01: a\n- 2025-01-03: c\n\n## Notes\n- 2025-01-02: b\n- 2025-01-04: d"
    );
}

#[test]
fn the_implicit_memory_section_matches_an_explicit_one() {
    let base = "- 2025-01-01: early entry";
    let ours = "## Memory\n- 2025-01-01: early entry\n- 2025-01-02: more";
    let m = merge(base, ours, base);
    assert!(m.clean);
    assert_eq!(m.content, ours);
}

#[test]
fn preambles_are_dropped_and_reported_per_side() {
    let ours = format!("Sure, here it is:\n{BASE}");
    let theirs = format!("Updated memory below.\n\n{BASE}");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean);
    assert_eq!(m.content, BASE);
    let got: Vec<(Side, &str)> = m
        .dropped
        .iter()
        .map(|d| (d.side, d.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Side::Ours, "Sure, here it is:"),
            (Side::Theirs, "Updated memory below.")
        ]
    );
}

#[test]
fn the_result_is_canonical_and_validates() {
    let ours = format!("{BASE}\r\n\r\n## Conventions   \r\n  - (2024-11-02) [fact] legacy\n\n\n");
    let theirs = add_line(BASE, "Facts", "- 2025-03-05: Team of six");
    let m = merge(BASE, &ours, &theirs);
    assert!(m.clean);
    assert_eq!(render(&m.content), m.content, "should be canonical");
    let report = memdoc::validate(&m.content, &memdoc::ValidateOptions::default());
    assert!(report.ok, "{:?}", report.diagnostics);
    assert!(m.content.contains("- 2024-11-02: legacy"));
}

#[test]
fn a_section_added_on_both_sides_with_different_notes_conflicts_without_a_base() {
    let ours = format!("{BASE}\n\n## Runbook\nRestart with systemctl");
    let theirs = format!("{BASE}\n\n## Runbook\nRestart with kubectl");
    let m = merge(BASE, &ours, &theirs);
    assert!(!m.clean);
    let c = &m.conflicts[0];
    assert_eq!(
        (c.kind, c.section.as_str()),
        (ConflictKind::Lines, "Runbook")
    );
    assert!(c.base.is_none(), "the section is new on both sides");
    assert!(
        m.content.ends_with("## Runbook\nRestart with systemctl"),
        "ours' lines"
    );
}

#[test]
fn kinds_and_sides_have_stable_strings() {
    let kinds = [
        ConflictKind::Entry,
        ConflictKind::Lines,
        ConflictKind::SectionRemoved,
        ConflictKind::Title,
    ]
    .map(ConflictKind::as_str);
    assert_eq!(kinds, ["entry", "lines", "section-removed", "title"]);
    let sides = [Side::Base, Side::Ours, Side::Theirs].map(Side::as_str);
    assert_eq!(sides, ["base", "ours", "theirs"]);
}

/// The sections of `text` as (title, entries as `date: text`), parsed again.
fn structure(text: &str) -> Vec<(String, Vec<String>)> {
    memdoc::parse(text)
        .sections
        .iter()
        .map(|s| {
            let entries = s
                .lines
                .iter()
                .filter_map(memdoc::Line::as_entry)
                .map(|e| format!("{}: {}", e.date, e.text))
                .collect();
            (s.title.to_string(), entries)
        })
        .collect()
}
