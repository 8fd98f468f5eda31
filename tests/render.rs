//! Canonical rendering (docs/FORMAT.md §6).

use memdoc::{parse, render};

#[test]
fn renders_sections_joined_by_one_blank_line() {
    let got = render("## A\n- 2025-01-01: a\n\n\n\n## B\n- 2025-01-02: b\n\n");
    assert_eq!(
        got, "## A\n- 2025-01-01: a\n\n## B\n- 2025-01-02: b",
        "should join sections by exactly one blank line"
    );
    let got = render("## A\n## B");
    assert_eq!(
        got, "## A\n\n## B",
        "should separate adjacent headings with one blank line"
    );
}

#[test]
fn keeps_inner_blank_lines_and_drops_trailing_ones() {
    let got = render("## A\n\n- 2025-01-01: a\n\n\nraw\n   \n\t\n");
    assert_eq!(
        got, "## A\n\n- 2025-01-01: a\n\n\nraw",
        "should keep inner blank lines and drop trailing ones"
    );
}

#[test]
fn drops_leading_and_trailing_blank_lines_of_the_document() {
    assert_eq!(
        render("\n\n \n## A\n- 2025-01-01: a\n\n \n"),
        "## A\n- 2025-01-01: a",
        "should drop blank lines around the document"
    );
}

#[test]
fn renders_entries_canonically() {
    let got = render("## A\n   - (2024-11-02) [fact]   legacy   \n\t- 2025-01-01:   spaced  ");
    assert_eq!(
        got, "## A\n- 2024-11-02: legacy\n- 2025-01-01: spaced",
        "should render entries at column 0 with trimmed text"
    );
}

#[test]
fn raw_lines_are_verbatim_up_to_trailing_white_space() {
    let got = render(
        "## A\n  indented raw  \n* star\n- not an entry\n```\n  - 2025-01-01: fenced  \n```",
    );
    assert_eq!(
        got, "## A\n  indented raw\n* star\n- not an entry\n```\n  - 2025-01-01: fenced\n```",
        "should keep raw and fenced lines verbatim"
    );
}

#[test]
fn converts_line_breaks_to_lf() {
    assert_eq!(
        render("## A\r\n- 2025-01-01: a\r\rraw\r\n"),
        "## A\n- 2025-01-01: a\n\nraw",
        "should write LF for CRLF and lone CR"
    );
    assert_eq!(
        render("## A\u{2028}B\n- 2025-01-01: a\u{b}b\u{c}c\u{85}d"),
        "## A\u{2028}B\n- 2025-01-01: a\u{b}b\u{c}c\u{85}d",
        "should keep other separators as characters"
    );
}

#[test]
fn drops_the_preamble_and_renders_the_implicit_section_first() {
    let got =
        render("Sure! Here is the memory:\n- 2025-01-01: early\n## Facts\n- 2025-01-02: later");
    assert_eq!(
        got, "## Memory\n- 2025-01-01: early\n\n## Facts\n- 2025-01-02: later",
        "should keep early entries under ## Memory"
    );
    assert_eq!(
        render("Just prose, no heading"),
        "",
        "should render heading-less prose to nothing"
    );
}

#[test]
fn empty_input_renders_empty() {
    for text in ["", "\n", "\r\n\r\n", "   \t  "] {
        assert_eq!(
            render(text),
            "",
            "should render {text:?} to the empty string"
        );
    }
}

#[test]
fn rendering_is_idempotent_on_tricky_inputs() {
    for text in [
        "## A\n```\n## B\n\n\n",
        "x\n- 2025-01-01: a\n```\n## Hidden",
        "## A\r\n  ## not\r\n\r\n## B  \r",
        "## 🎯🚀\n- 2025-01-01: 😀\u{fffd}\0",
        "- (2024-01-01) [pref] p\n~~~\n~~\n",
    ] {
        let once = render(text);
        assert_eq!(render(&once), once, "should be idempotent for {text:?}");
        assert_eq!(
            parse(&once).render(),
            once,
            "should agree with Document::render for {text:?}"
        );
    }
}

#[test]
fn has_no_trailing_newline() {
    assert!(
        !render("## A\n- 2025-01-01: a\n").ends_with('\n'),
        "should not end with a newline"
    );
}
