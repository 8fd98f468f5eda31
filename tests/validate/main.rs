//! Validation (docs/FORMAT.md §9): every rule, its code, severity and range, and
//! the order of the findings.

use memdoc::{
    validate, Code, Diagnostic, Limits, LineIndex, Report, Scope, Severity, Span, ValidateOptions,
};

mod sizes;

fn team(previous: Option<&str>) -> ValidateOptions {
    ValidateOptions {
        scope: Scope::Team,
        previous: previous.map(str::to_owned),
        ..ValidateOptions::default()
    }
}

fn user(previous: Option<&str>) -> ValidateOptions {
    ValidateOptions {
        previous: previous.map(str::to_owned),
        ..ValidateOptions::default()
    }
}

fn codes(report: &Report) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// `code@line:col-line:col`, or `code` for whole-document findings.
fn located(text: &str, report: &Report) -> Vec<String> {
    let index = LineIndex::new(text);
    report
        .diagnostics
        .iter()
        .map(|d| match d.span {
            None => d.code.as_str().to_owned(),
            Some(span) => {
                let r = index.range(span);
                format!(
                    "{}@{}:{}-{}:{}",
                    d.code, r.start.line, r.start.column, r.end.line, r.end.column
                )
            }
        })
        .collect()
}

fn of(report: &Report, code: Code) -> Vec<&Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

#[test]
fn codes_and_severities_are_pinned() {
    let got: Vec<(&str, Severity)> = Code::ALL
        .iter()
        .map(|c| (c.as_str(), c.severity()))
        .collect();
    let want = [
        ("size/hard-limit", Severity::Error),
        ("size/soft-limit", Severity::Warning),
        ("structure/missing-heading", Severity::Error),
        ("scope/personal-heading", Severity::Error),
        ("scope/legacy-personal-heading", Severity::Warning),
        ("diff/section-removed", Severity::Warning),
        ("diff/shrink", Severity::Warning),
        ("entry/nonstandard", Severity::Warning),
        ("entry/impossible-date", Severity::Warning),
        ("structure/duplicate-heading", Severity::Warning),
        ("structure/unclosed-fence", Severity::Warning),
        ("structure/preamble-dropped", Severity::Warning),
        ("save/would-erase", Severity::Error),
    ];
    assert_eq!(
        got, want,
        "should keep every code, in FORMAT §9 order, with its severity"
    );
    for code in Code::ALL {
        assert_eq!(
            Code::from_str_opt(code.as_str()),
            Some(*code),
            "should round-trip {code}"
        );
        assert_eq!(
            code.to_string(),
            code.as_str(),
            "should display {code:?} as its code"
        );
    }
    assert_eq!(
        Code::from_str_opt("size/unknown"),
        None,
        "should not invent codes"
    );
    assert_eq!(
        (
            Severity::Error.as_str(),
            Severity::Warning.as_str(),
            Severity::Info.as_str()
        ),
        ("error", "warning", "info"),
        "should name severities"
    );
}

#[test]
fn clean_document_has_no_findings() {
    let text = "## Product Decisions\n- 2025-03-15: Standups are on Mondays";
    let report = validate(text, &team(Some(text)));
    assert_eq!(codes(&report), Vec::<&str>::new(), "should find nothing");
    assert!(report.ok, "should be ok");
    assert_eq!(report.canonical, text, "should give the canonical form");
    assert_eq!(
        (report.usage.chars, report.usage.utf8_bytes),
        (58, 58),
        "should measure the canonical form"
    );
}

#[test]
fn missing_heading() {
    for text in [
        "Nothing new to remember.",
        "NO-UPDATE",
        "x",
        "```\n## Hidden\n```",
        "\u{200b}",
    ] {
        let report = validate(text, &user(None));
        assert_eq!(
            of(&report, Code::MissingHeading).len(),
            1,
            "should reject {text:?}"
        );
        assert_eq!(
            of(&report, Code::MissingHeading)[0].span,
            None,
            "should be document-level for {text:?}"
        );
        assert!(!report.ok, "should not be ok for {text:?}");
    }
    for text in [
        "",
        " \n\t\r\n",
        "- 2025-01-01: entry without heading",
        "## Heading only",
    ] {
        assert_eq!(
            of(&validate(text, &user(None)), Code::MissingHeading).len(),
            0,
            "should accept {text:?}"
        );
    }
}

#[test]
fn personal_headings_in_team_scope() {
    let text = "## Facts\n- 2025-01-01: a\n## Preferences\n- 2025-01-01: b\n## personal_notes!\n## Ｉｎｓｔｒｕｃｔｉｏｎｓ\n## Personal   Instructions";
    let report = validate(text, &team(None));
    assert_eq!(
        located(text, &report),
        [
            "scope/personal-heading@3:1-3:15",
            "scope/personal-heading@5:1-5:19",
            "scope/personal-heading@6:1-6:16",
            "scope/personal-heading@7:1-7:27",
        ],
        "should flag each personal heading at its line, NFKC included"
    );
    assert!(!report.ok, "should be an error");
    assert_eq!(
        codes(&validate(text, &user(None))),
        Vec::<&str>::new(),
        "should allow them in user scope"
    );
}

#[test]
fn grandfathered_personal_headings_are_warnings() {
    let previous = "## Preferences\n- 2024-01-01: old";
    let text = "## Preferences\n- 2024-01-01: old\n## Instructions";
    let report = validate(text, &team(Some(previous)));
    assert_eq!(
        located(text, &report),
        [
            "scope/legacy-personal-heading@1:1-1:15",
            "scope/personal-heading@3:1-3:16"
        ],
        "should grandfather only headings the previous document had"
    );
    assert_eq!(
        of(&report, Code::LegacyPersonalHeading)[0].severity,
        Severity::Warning,
        "should be a warning"
    );
}

#[test]
fn forbidden_headings_are_configurable_and_normalized() {
    let opts = ValidateOptions {
        forbidden_team_headings: vec!["Secret Stuff!".to_owned()],
        ..team(None)
    };
    let report = validate("## Preferences\n## secret_stuff", &opts);
    assert_eq!(
        codes(&report),
        ["scope/personal-heading"],
        "should use the configured list only"
    );
    assert_eq!(
        report.diagnostics[0].span,
        Some(Span::new(15, 30)),
        "should point at the second heading"
    );
    let none = ValidateOptions {
        forbidden_team_headings: Vec::new(),
        ..team(None)
    };
    assert_eq!(
        codes(&validate("## Preferences", &none)),
        Vec::<&str>::new(),
        "should allow everything with an empty list"
    );
}

#[test]
fn removed_sections_are_document_level_warnings() {
    let previous = "## A\n- 2025-01-01: a\n## B\n- 2025-01-01: b\n## B\n## C\n- 2025-01-01: c";
    let report = validate(
        "## a!\n- 2025-01-01: a\n## C\n- 2025-01-01: c",
        &user(Some(previous)),
    );
    let removed = of(&report, Code::SectionRemoved);
    assert_eq!(
        removed.len(),
        1,
        "should report B once, and not A (normalizes equal)"
    );
    assert_eq!(removed[0].span, None, "should have no range");
    assert!(report.ok, "should be only a warning");
    let implicit_previous = "- 2025-01-01: early\n## A";
    assert_eq!(
        of(
            &validate("## A", &user(Some(implicit_previous))),
            Code::SectionRemoved
        )
        .len(),
        0,
        "should not report the implicit section"
    );
}

#[test]
fn nonstandard_entries_with_ranges_and_truncated_message() {
    let long = format!("- {}", "é".repeat(100));
    let text = format!("## A\n- 2025-13-01: bad month\n  - no date\n* star\n+ plus\n1. one\n-x\n-\n```\n- fenced\n```\n{long}");
    let report = validate(&text, &user(None));
    assert_eq!(
        located(&text, &report),
        [
            "entry/impossible-date@2:3-2:13",
            "entry/nonstandard@3:3-3:12",
            "entry/nonstandard@12:1-12:103"
        ],
        "should flag `- ` lines outside fences, from their first non-blank character, an impossible date on the date"
    );
    let last = &report.diagnostics[2];
    let shown = format!("- {}", "é".repeat(78));
    assert!(
        last.message.contains(&format!("\"{shown}...\"")),
        "should truncate the quoted line to 80 characters: {}",
        last.message
    );
    assert!(
        !last.message.contains(&format!("{shown}é")),
        "should not quote more than 80 characters"
    );
    assert!(report.ok, "should be warnings");
}

#[test]
fn an_impossible_date_is_named_on_the_date_and_the_line_kept() {
    let text = "## Deploys\n- 2025-02-30: Deploys are frozen on Fridays\n  - (2025-04-31) [fact] April has 30 days\n- 0000-01-01: year zero\n- 2025-02-3x: not a date\n- 2025-02-30:\n- 2024-02-29: leap day";
    for options in [user(None), team(None)] {
        let report = validate(text, &options);
        assert_eq!(
            located(text, &report),
            [
                "entry/impossible-date@2:3-2:13",
                "entry/impossible-date@3:6-3:16",
                "entry/impossible-date@4:3-4:13",
                "entry/nonstandard@5:1-5:25",
                "entry/impossible-date@6:3-6:13",
            ],
            "should name a date the calendar lacks, on the date, for a `- ` line that starts with it"
        );
        assert_eq!(
            report.diagnostics[0].message,
            "2025-02-30 is not a date of the calendar, so the line is not an entry."
        );
        assert!(report.ok, "should be a warning in every scope");
        assert!(
            report
                .canonical
                .contains("\n- 2025-02-30: Deploys are frozen on Fridays\n"),
            "should keep the line as written: {}",
            report.canonical
        );
    }
}

#[test]
fn duplicate_headings_point_at_the_repeat() {
    let text = "## Facts\n## FACTS!\n## 🎯\n## 🚀\n## 🎯\n## facts";
    let report = validate(text, &user(None));
    assert_eq!(
        located(text, &report),
        [
            "structure/duplicate-heading@2:1-2:10",
            "structure/duplicate-heading@5:1-5:6",
            "structure/duplicate-heading@6:1-6:9"
        ],
        "should flag each repeat; titles that normalize to nothing compare verbatim"
    );
}

#[test]
fn unclosed_fence_points_at_the_opening_line() {
    let text = "## A\n- 2025-01-01: a\n  ~~~~ text\n## B";
    let report = validate(text, &user(None));
    assert_eq!(
        located(text, &report),
        ["structure/unclosed-fence@3:1-3:12"],
        "should flag the opening line"
    );
}

#[test]
fn preamble_lines_each_get_a_finding() {
    let text = "Sure, here it is:\n\n  (updated)  \n## A\n- 2025-01-01: a";
    let report = validate(text, &user(None));
    assert_eq!(
        located(text, &report),
        [
            "structure/preamble-dropped@1:1-1:18",
            "structure/preamble-dropped@3:1-3:12"
        ],
        "should flag every non-blank preamble line, trailing white space excluded"
    );
    assert!(report.ok, "should be warnings");
}

#[test]
fn findings_sort_by_position_then_code() {
    let previous = "## Gone\n- 2025-01-01: ".to_owned() + &"x".repeat(500);
    let text = "- not an entry\n## Preferences\n## A\n- nope\n## A\n```";
    let report = validate(text, &team(Some(&previous)));
    assert_eq!(
        located(text, &report),
        [
            "diff/section-removed",
            "diff/shrink",
            "entry/nonstandard@1:1-1:15",
            "structure/preamble-dropped@1:1-1:15",
            "scope/personal-heading@2:1-2:15",
            "entry/nonstandard@4:1-4:7",
            "structure/duplicate-heading@5:1-5:5",
            "structure/unclosed-fence@6:1-6:4",
        ],
        "should put whole-document findings first, then sort by position, then by code"
    );
    let mut sorted = report.diagnostics.clone();
    sorted.sort_by_key(|d| (d.span.map(|s| (s.start, s.end)), d.code));
    assert_eq!(report.diagnostics, sorted, "should already be sorted");
    assert!(
        report.diagnostics.iter().all(|d| d.help.is_some()),
        "should give every finding a help text"
    );
}

#[test]
fn document_level_findings_have_no_range() {
    let previous = "## Gone\n- 2025-01-01: ".to_owned() + &"x".repeat(500);
    let limits = Limits::new(1, 2).expect("limits");
    let opts = ValidateOptions {
        limits,
        ..user(Some(&previous))
    };
    let report = validate("not a memory", &opts);
    for d in &report.diagnostics {
        let whole = matches!(
            d.code,
            Code::SizeHardLimit
                | Code::SizeSoftLimit
                | Code::MissingHeading
                | Code::SectionRemoved
                | Code::Shrink
                | Code::WouldErase
        );
        assert_eq!(
            d.span.is_none(),
            whole,
            "should give {} a range only when it is about a line",
            d.code
        );
    }
    let report = validate("## A\n- 2025-01-01: a", &opts);
    assert_eq!(
        codes(&report),
        ["size/hard-limit", "diff/section-removed", "diff/shrink"],
        "should order document-level findings by code"
    );
}

#[test]
fn ranges_are_in_bounds_for_crlf_input() {
    let text = "Hi\r\n## Preferences\r\n- bad\r\n## Preferences\r\n```\r\n";
    let report = validate(text, &team(None));
    for d in &report.diagnostics {
        if let Some(span) = d.span {
            assert!(
                !span.slice(text).is_empty(),
                "should point at text for {}",
                d.code
            );
            assert!(
                !span.slice(text).contains('\r'),
                "should not include the line break for {}",
                d.code
            );
        }
    }
    assert_eq!(
        located(text, &report),
        [
            "structure/preamble-dropped@1:1-1:3",
            "scope/personal-heading@2:1-2:15",
            "entry/nonstandard@3:1-3:6",
            "scope/personal-heading@4:1-4:15",
            "structure/duplicate-heading@4:1-4:15",
            "structure/unclosed-fence@5:1-5:4",
        ],
        "should locate CRLF lines"
    );
}

/// The stored document's sections are its headings as `parse` finds them:
/// a `## ` line inside a code fence is code, not a section, so it neither
/// grandfathers a personal heading nor counts as removed.
#[test]
fn stored_headings_inside_code_fences_are_not_sections() {
    let stored = "## Facts\n- 2025-01-01: a\n```\n## Preferences\n## Old Notes\n```\n\n## Kept\n- 2025-01-02: b";
    let text = "## Facts\n- 2025-01-01: a\n\n## Kept\n- 2025-01-02: b\n\n## Preferences\n- 2025-01-03: dark mode";
    let report = validate(text, &team(Some(stored)));
    assert_eq!(codes(&report), ["scope/personal-heading"]);
    let stored_real =
        "## Facts\n- 2025-01-01: a\n\n## Preferences\n- 2025-01-03: dark mode\n\n## Old Notes\nx";
    let report = validate(text, &team(Some(stored_real)));
    assert_eq!(
        codes(&report),
        ["diff/section-removed", "scope/legacy-personal-heading"]
    );
}
