//! Parsing (docs/FORMAT.md §2–5): lines, headings, fences, entries, the implicit
//! section and the preamble.

use memdoc::{heading_title, is_valid_date, parse, parse_entry, LegacyMarker, Line, Span};

fn titles(text: &str) -> Vec<String> {
    parse(text)
        .sections
        .into_iter()
        .map(|s| s.title.into_owned())
        .collect()
}

fn raw_texts<'a>(line: &'a Line<'_>) -> Option<&'a str> {
    match line {
        Line::Raw(r) => Some(&*r.text),
        Line::Entry(_) => None,
    }
}

#[test]
fn splits_lines_at_lf_crlf_and_lone_cr_only() {
    let doc = parse("## A\r\n- 2025-01-01: x\r- 2025-01-02: y\n- 2025-01-03: z");
    let dates: Vec<&str> = doc.entries().map(|e| &*e.date).collect();
    assert_eq!(
        dates,
        ["2025-01-01", "2025-01-02", "2025-01-03"],
        "should split at CRLF, lone CR and LF"
    );
    for sep in [
        "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}", "\u{2028}", "\u{2029}",
    ] {
        let text = format!("## A{sep}B\n- 2025-01-01: x{sep}y");
        let doc = parse(&text);
        assert_eq!(doc.sections.len(), 1, "should not split at {sep:?}");
        assert_eq!(
            doc.sections[0].title,
            format!("A{sep}B"),
            "should keep {sep:?} inside the title"
        );
        let entry = doc.sections[0].lines[0]
            .as_entry()
            .expect("should be an entry");
        assert_eq!(
            entry.text,
            format!("x{sep}y"),
            "should keep {sep:?} inside the text"
        );
    }
}

#[test]
fn trailing_white_space_is_not_part_of_a_line() {
    let doc = parse("## A \t\u{3000}\n  raw  \u{a0}\n- 2025-01-01: x \u{85}");
    assert_eq!(doc.sections[0].title, "A", "should trim the title");
    assert_eq!(
        raw_texts(&doc.sections[0].lines[0]),
        Some("  raw"),
        "should keep leading and drop trailing white space"
    );
    assert_eq!(
        doc.sections[0].span,
        Span::new(0, 4),
        "should end the heading span before trailing white space"
    );
    let entry = doc.sections[0].lines[1]
        .as_entry()
        .expect("should be an entry");
    assert_eq!(entry.text, "x", "should trim the entry text");
}

#[test]
fn heading_needs_exactly_two_hashes_one_space_and_text() {
    for (line, want) in [
        ("## Foo", Some("Foo")),
        ("##   Foo  bar  ", Some("Foo  bar")),
        ("## # Foo", Some("# Foo")),
        ("#", None),
        ("# Foo", None),
        ("### Foo", None),
        ("##Foo", None),
        ("##\tFoo", None),
        ("  ## Foo", None),
        ("## ", None),
        ("##", None),
        ("##  \u{3000}", None),
    ] {
        assert_eq!(
            heading_title(line.trim_end()),
            want,
            "should judge {line:?}"
        );
        let explicit = parse(line).sections.iter().any(|s| s.explicit);
        assert_eq!(
            explicit,
            want.is_some(),
            "should parse {line:?} as a heading or not"
        );
    }
}

#[test]
fn non_headings_inside_a_section_are_raw_lines() {
    let doc = parse("## A\n#\n### B\n##C\n  ## D\n## \n##");
    let raws: Vec<Option<&str>> = doc.sections[0].lines.iter().map(raw_texts).collect();
    assert_eq!(
        raws,
        [
            Some("#"),
            Some("### B"),
            Some("##C"),
            Some("  ## D"),
            Some("##"),
            Some("##")
        ],
        "should keep every non-heading as a raw line"
    );
    assert_eq!(doc.sections.len(), 1, "should open no other section");
}

#[test]
fn empty_and_duplicate_sections_are_kept() {
    assert_eq!(
        titles("## A\n## B\n## A\n## C"),
        ["A", "B", "A", "C"],
        "should keep empty and duplicate sections in order"
    );
}

#[test]
fn fences_hide_headings_and_entries() {
    let doc = parse(
        "## A\n```md\n## Not a heading\n- 2025-01-01: not an entry\n```\n- 2025-01-02: entry",
    );
    assert_eq!(
        doc.sections.len(),
        1,
        "should not split the section at a fenced heading"
    );
    let lines = &doc.sections[0].lines;
    assert_eq!(lines.len(), 5, "should keep every line");
    assert!(
        lines[..4]
            .iter()
            .all(|l| matches!(l, Line::Raw(r) if r.fenced)),
        "should mark fenced lines, delimiters included"
    );
    assert!(
        lines[4].as_entry().is_some(),
        "should parse entries after the closing fence"
    );
    assert_eq!(doc.unclosed_fence, None, "should see the fence closed");
}

#[test]
fn fences_close_with_the_same_character_at_least_as_long() {
    // A shorter closer and the other character do not close.
    let doc = parse("## A\n````\n```\n~~~~\n## Hidden\n`````\n## B");
    assert_eq!(
        titles("## A\n````\n```\n~~~~\n## Hidden\n`````\n## B"),
        ["A", "B"],
        "should close only at a long-enough run of the same character"
    );
    assert_eq!(doc.unclosed_fence, None, "should close the fence");
    let doc = parse("## A\n~~~\n```\n## Hidden\n~~~\n## B");
    assert_eq!(
        doc.sections.len(),
        2,
        "should close a tilde fence with tildes"
    );
    let doc = parse("## A\n   ```\n## Hidden\n  ```  \n## B");
    assert_eq!(
        doc.sections.len(),
        2,
        "should accept indented fences and closers"
    );
    let doc = parse("## A\n``\n## B");
    assert_eq!(
        doc.sections.len(),
        2,
        "should not open a fence with two backticks"
    );
    let doc = parse("## A\n```\n``` x\n## Hidden");
    assert_eq!(
        doc.sections.len(),
        1,
        "should not close at a fence line with text"
    );
}

#[test]
fn unclosed_fence_runs_to_the_end() {
    let doc = parse("## A\nx\n  ~~~ sh\n## B\n- 2025-01-01: y");
    assert_eq!(
        doc.sections.len(),
        1,
        "should keep the rest inside the fence"
    );
    assert_eq!(
        doc.unclosed_fence,
        Some(Span::new(7, 15)),
        "should point at the opening line"
    );
}

#[test]
fn canonical_entries() {
    let e =
        parse_entry("- 2025-03-15: Weekly standup", Span::new(0, 28)).expect("should be an entry");
    assert_eq!(
        (&*e.date, &*e.text, e.legacy_marker),
        ("2025-03-15", "Weekly standup", None),
        "should split date and text"
    );
    let doc = parse("## A\n   - 2025-03-15: indented  ");
    let e = doc.sections[0].lines[0]
        .as_entry()
        .expect("should accept an indented entry");
    assert_eq!(e.span, Span::new(8, 30), "should span the trimmed line");
    for line in [
        "- 2025-03-15:",
        "- 2025-03-15: ",
        "- 2025-03-15:text",
        "-2025-03-15: text",
        "- 2025-3-15: text",
        "- 2025/03/15: text",
        "- 2025-02-29: not a leap year",
        "- 2025-13-01: month 13",
        "- 2025-04-31: April 31",
        "- 0000-01-01: year zero",
        "- 2025-W11-6: week date",
        "- 20250315xx: compact",
        "- ２０２５-03-15: full-width digits",
        "* 2025-03-15: star",
    ] {
        assert_eq!(
            parse_entry(line, Span::default()),
            None,
            "should reject {line:?}"
        );
    }
}

#[test]
fn strict_dates() {
    for (date, want) in [
        ("2024-02-29", true),
        ("2000-02-29", true),
        ("1900-02-29", false),
        ("0001-01-01", true),
        ("9999-12-31", true),
        ("0000-12-31", false),
        ("2025-00-10", false),
        ("2025-01-00", false),
        ("2025-01-32", false),
        ("2025-1-010", false),
        ("2025-01-1", false),
        ("+025-01-01", false),
        ("2025_01_01", false),
        ("", false),
    ] {
        assert_eq!(is_valid_date(date), want, "should judge {date:?}");
    }
}

#[test]
fn legacy_entries() {
    for (line, marker, text) in [
        (
            "- (2024-11-02) [fact] legacy fact",
            LegacyMarker::Fact,
            "legacy fact",
        ),
        (
            "- (2024-11-02) [pref] likes tea",
            LegacyMarker::Pref,
            "likes tea",
        ),
        (
            "- (2024-11-02) [instr] be brief",
            LegacyMarker::Instr,
            "be brief",
        ),
        (
            "- (2024-11-02) [fact] [pref] only first",
            LegacyMarker::Fact,
            "[pref] only first",
        ),
    ] {
        let e = parse_entry(line, Span::default()).expect("should parse a legacy entry");
        assert_eq!(
            (&*e.date, e.legacy_marker, &*e.text),
            ("2024-11-02", Some(marker), text),
            "should read {line:?}"
        );
        assert!(
            line.contains(&format!("[{}]", marker.as_str())),
            "should name the marker as written in {line:?}"
        );
    }
    for line in [
        "- (2024-11-02) [Fact] capital",
        "- (2024-11-02) [note] unknown",
        "- (2024-11-02) [fact]",
        "- (2024-11-02) [fact]text",
        "- (2024-11-02)[fact] text",
        "- (2024-02-30) [fact] bad date",
    ] {
        assert_eq!(
            parse_entry(line, Span::default()),
            None,
            "should reject {line:?}"
        );
    }
}

#[test]
fn entries_before_the_first_heading_open_the_implicit_section() {
    let doc =
        parse("Sure, here it is:\n\n- 2025-01-01: early\nprose\n## Facts\n- 2025-01-02: later");
    assert_eq!(doc.sections.len(), 2, "should open an implicit section");
    let memory = &doc.sections[0];
    assert_eq!(
        (&*memory.title, memory.explicit),
        ("Memory", false),
        "should title it Memory"
    );
    assert_eq!(
        memory.span,
        Span::new(19, 38),
        "should span the first entry"
    );
    assert_eq!(
        memory.lines.len(),
        2,
        "should keep the raw line after the first entry"
    );
    let preamble: Vec<&str> = doc.preamble.iter().map(|r| &*r.text).collect();
    assert_eq!(
        preamble,
        ["Sure, here it is:"],
        "should collect only the non-blank text before the first entry"
    );
    assert_eq!(
        doc.preamble[0].span,
        Span::new(0, 17),
        "should keep the preamble range"
    );
}

#[test]
fn preamble_without_entries() {
    let doc = parse("\n\nHere you go\n  ```\n## Hidden\n```\n\n## Facts");
    let preamble: Vec<&str> = doc.preamble.iter().map(|r| &*r.text).collect();
    assert_eq!(
        preamble,
        ["Here you go", "  ```", "## Hidden", "```"],
        "should report fenced preamble lines too"
    );
    assert_eq!(
        titles("\n\nHere you go\n  ```\n## Hidden\n```\n\n## Facts"),
        ["Facts"],
        "should open only the real heading"
    );
}

#[test]
fn every_string_parses() {
    for text in [
        "",
        "\n",
        "\r\n\r",
        "\0",
        "\u{fffd}",
        "## \0",
        "- 2025-01-01: \0",
        "```",
        "~~~~~~~~~",
    ] {
        let doc = parse(text);
        assert!(
            doc.sections.iter().all(|s| s.span.end <= text.len()),
            "should keep spans in bounds for {text:?}"
        );
    }
    assert!(
        parse("").is_empty(),
        "should parse the empty string to no sections"
    );
}
