//! Fences in a merge: a fence left open on one side is closed before the
//! other side's new section, and fence lines that move around the other
//! side's entries conflict.

use super::*;

#[test]
fn a_fence_left_open_by_ours_is_closed_before_theirs_new_section() {
    let base = "## A\n- 2025-01-01: a";
    let ours = format!("{base}\n\n## Snippet\n```\nnpm i memdoc");
    let theirs = format!("{base}\n\n## New\n- 2025-01-02: n");
    let m = merge(base, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        m.content,
        "## A\n- 2025-01-01: a\n\n## Snippet\n```\nnpm i memdoc\n```\n\n## New\n- 2025-01-02: n"
    );
    assert_eq!(memdoc::parse(&m.content).unclosed_fence, None);
    let new = &structure(&m.content)[2];
    assert_eq!(
        (new.0.as_str(), new.1.as_slice()),
        ("New", &["2025-01-02: n".to_owned()][..])
    );
}

#[test]
fn a_tilde_fence_is_closed_with_its_own_character_and_length() {
    let base = "## A\n- 2025-01-01: a";
    let ours = format!("{base}\n\n## Snippet\n  ~~~~ sh\nnpm i memdoc\n~~~\n\n\n");
    let theirs = format!("{base}\n\n## New\n- 2025-01-02: n");
    let m = merge(base, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert!(
        m.content
            .contains("## Snippet\n  ~~~~ sh\nnpm i memdoc\n~~~\n~~~~\n\n## New\n- 2025-01-02: n"),
        "a shorter run does not close it; the closer matches the opener: {}",
        m.content
    );
    assert_eq!(structure(&m.content).len(), 3);
}

#[test]
fn a_fence_open_in_the_last_section_stays_open_when_nothing_follows() {
    let base = "## A\n- 2025-01-01: a";
    let ours = format!("{base}\n\n## Snippet\n```\nnpm i memdoc");
    let theirs = add_line(base, "A", "- 2025-01-02: b");
    let m = merge(base, &ours, &theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        m.content,
        "## A\n- 2025-01-01: a\n- 2025-01-02: b\n\n## Snippet\n```\nnpm i memdoc"
    );
}

#[test]
fn a_fence_opened_in_base_and_closed_on_one_side_only() {
    // Base ends inside an open fence; ours closes it and adds a section after
    // it, theirs only retitles the fence. Ours' section stays a section.
    let base = "## A\n- 2025-01-01: a\n\n## Code\n```\nx";
    let ours = format!("{base}\n```\n\n## New\n- 2025-01-02: n");
    let theirs = "## A\n- 2025-01-01: a\n\n## Code\n```sh\nx";
    let m = merge(base, &ours, theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        m.content,
        "## A\n- 2025-01-01: a\n\n## Code\n```sh\nx\n```\n\n## New\n- 2025-01-02: n"
    );
}

#[test]
fn fence_lines_removed_by_one_side_around_the_others_entry_conflict() {
    let base = "## Code\n```\nx\ny\nz\n```";
    let ours = "## Code\nx\ny\nz";
    for added in ["- 2025-01-02: e", "## Not a heading"] {
        let theirs = format!("## Code\n```\nx\ny\n{added}\nz\n```");
        let m = merge(base, ours, &theirs);
        assert!(
            !m.clean,
            "theirs' code would become structure: {}",
            m.content
        );
        let c = &m.conflicts[0];
        assert_eq!((c.kind, c.section.as_str()), (ConflictKind::Lines, "Code"));
        let side = |s: &Option<memdoc::ConflictSide>| s.as_ref().map(|s| s.lines.clone());
        assert_eq!(
            side(&c.ours),
            Some(vec!["x".into(), "y".into(), "z".into()])
        );
        assert_eq!(side(&c.theirs).map(|l| l.len()), Some(6));
        assert_eq!(m.content, ours, "the content keeps ours' section");
        let span = c.theirs.as_ref().map(|s| s.span).expect("theirs");
        assert_eq!(&theirs[span.start..span.end], &theirs["## Code\n".len()..]);
    }
}

#[test]
fn a_fence_added_by_one_side_around_the_others_entry_conflicts() {
    let base = "## A\nx\ny\nz";
    let ours = "## A\n```\nx\ny\nz\n```";
    let theirs = "## A\nx\ny\n- 2025-01-02: e\nz";
    let m = merge(base, ours, theirs);
    assert!(!m.clean, "theirs' entry would become code: {}", m.content);
    assert_eq!(m.conflicts.len(), 1, "one conflict for the section");
    assert_eq!(m.content, ours);
    // Prose added inside the fence stays prose-in-code on both readings.
    let theirs = "## A\nx\ny\nplain words\nz";
    let m = merge(base, ours, theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(m.content, "## A\n```\nx\ny\nplain words\nz\n```");
}

#[test]
fn a_heading_like_line_inside_ours_fence_stays_code() {
    let base = "## A\n```\nx\n```\n- 2025-01-01: a";
    let ours = "## A\n```\nx\n## Not a heading\n```\n- 2025-01-01: a";
    let theirs = "## A\n```\nx\n```\n- 2025-01-01: a\n- 2025-01-02: b";
    let m = merge(base, ours, theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        structure(&m.content),
        [(
            "A".to_owned(),
            vec!["2025-01-01: a".to_owned(), "2025-01-02: b".to_owned()]
        )]
    );
}

#[test]
fn entries_added_at_one_place_with_different_blank_lines_do_not_conflict() {
    // Found by the disjoint-additions property: the two sides differ only in
    // blank lines around their new entries.
    let base = "## Start\n\n\n## Decisions";
    let ours = "## Start\n\n\n- 2025-05-01: ours addition\n## Decisions";
    let theirs = "## Start\n\n- 2025-05-02: theirs addition\n\n## Decisions";
    let m = merge(base, ours, theirs);
    assert!(m.clean, "{:?}", m.conflicts);
    assert_eq!(
        m.content,
        "## Start\n\n\n- 2025-05-01: ours addition\n- 2025-05-02: theirs addition\n\n## Decisions"
    );
    // Non-blank raw lines that differ still conflict.
    let m = merge(base, "## Start\nours note", "## Start\ntheirs note");
    assert!(!m.clean);
}
