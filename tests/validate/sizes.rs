//! Size: the limits on the canonical text, counted in code points, and the
//! warning when a save shrinks a memory below forty percent.

use super::*;

#[test]
fn size_limits_on_the_canonical_text() {
    let limits = Limits::new(30, 40).expect("limits");
    let opts = |limits| ValidateOptions {
        limits,
        ..ValidateOptions::default()
    };
    let at_soft = "## A\n- 2025-01-01: 0123456789a"; // 30 code points
    assert_eq!(at_soft.chars().count(), 30, "fixture");
    assert_eq!(
        codes(&validate(at_soft, &opts(limits))),
        Vec::<&str>::new(),
        "should accept exactly the soft limit"
    );
    let report = validate("## A\n- 2025-01-01: 0123456789ab", &opts(limits));
    assert_eq!(
        codes(&report),
        ["size/soft-limit"],
        "should warn above soft"
    );
    assert_eq!(
        report.diagnostics[0].span, None,
        "should not give a size finding a range"
    );
    assert!(report.ok, "should still be ok above soft");
    let at_hard = "## A\n- 2025-01-01: 0123456789abcdefghijk"; // 40
    assert_eq!(
        codes(&validate(at_hard, &opts(limits))),
        ["size/soft-limit"],
        "should accept exactly the hard limit"
    );
    let report = validate("## A\n- 2025-01-01: 0123456789abcdefghijkl", &opts(limits));
    assert_eq!(
        codes(&report),
        ["size/hard-limit"],
        "should give only the hard finding above hard"
    );
    assert_eq!(
        report.diagnostics[0].severity,
        Severity::Error,
        "should be an error"
    );
    assert!(!report.ok, "should not be ok above hard");
    // Padding that the canonical form drops is not counted: CRLF, trailing
    // white space, blank lines, preamble.
    let padded = "Sure:\r\n## A   \r\n- 2025-01-01: 0123456789a\t\t\r\n\r\n\r\n";
    let report = validate(padded, &opts(limits));
    assert_eq!(report.usage.chars, 30, "should count the canonical form");
    assert_eq!(
        codes(&report),
        ["structure/preamble-dropped"],
        "should not warn about size"
    );
}

#[test]
fn size_counts_code_points_not_utf16_or_bytes() {
    let report = validate("## 😀\n- 2025-01-01: é中", &user(None));
    assert_eq!(
        (report.usage.chars, report.usage.utf8_bytes),
        (21, 27),
        "should count code points and UTF-8 bytes"
    );
}

#[test]
fn shrink_below_forty_percent() {
    let previous = format!("## A\n- 2025-01-01: {}", "x".repeat(81)); // 100 code points
    assert_eq!(previous.chars().count(), 100, "fixture");
    let forty = format!("## A\n- 2025-01-01: {}", "x".repeat(21));
    let below = format!("## A\n- 2025-01-01: {}", "x".repeat(20));
    assert_eq!(
        of(&validate(&forty, &user(Some(&previous))), Code::Shrink).len(),
        0,
        "should accept exactly 40%"
    );
    let report = validate(&below, &user(Some(&previous)));
    assert_eq!(codes(&report), ["diff/shrink"], "should warn below 40%");
    assert_eq!(report.diagnostics[0].span, None, "should have no range");
    assert_eq!(
        of(&validate(&below, &user(None)), Code::Shrink).len(),
        0,
        "should need a previous document"
    );
}

#[test]
fn shrink_counts_code_points_not_bytes() {
    // 100 code points in 281 bytes: at 40 code points the memory is at 40%
    // of its size, though below 40% of its bytes.
    let previous = format!("## A\n- 2025-01-01: {}", "あ".repeat(81));
    assert_eq!(previous.chars().count(), 100, "fixture");
    for (n, shrinks) in [(21, false), (20, true), (60, false)] {
        let text = format!("## A\n- 2025-01-01: {}", "あ".repeat(n));
        assert_eq!(
            of(&validate(&text, &user(Some(&previous))), Code::Shrink).len(),
            usize::from(shrinks),
            "{} of 100 code points",
            text.chars().count()
        );
    }
    let below = format!("## A\n- 2025-01-01: {}", "x".repeat(20));
    let report = validate(&below, &user(Some(&previous)));
    assert!(
        report.diagnostics[0]
            .message
            .contains("from 100 to 39 characters"),
        "should count the stored memory in code points: {}",
        report.diagnostics[0].message
    );
}
