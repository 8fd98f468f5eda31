//! Expiry: exact archives, idempotence, untouched raw lines and sections,
//! and coded errors for bad options; with properties over generated
//! memories.
#![cfg(not(target_arch = "wasm32"))]

use memdoc::{expire, parse, render, ExpireOptions, ExpiryPolicy, Line};
use proptest::prelude::*;

const MEMORY: &str = "## Current Priorities
- 2025-01-01: Ship v1
Raw note that never expires
- 2025-05-02: Ship v2
- 2025-07-01: Dated in the future

## Decisions
- 2020-01-01: Use Rust

## current   PRIORITIES!
- 2025-04-01: Duplicate-titled section, same policy";

fn policy(section: &str, days: u64) -> ExpiryPolicy {
    ExpiryPolicy {
        section: section.into(),
        max_age_days: days,
    }
}

fn options(policies: Vec<ExpiryPolicy>) -> ExpireOptions {
    ExpireOptions {
        today: "2025-06-01".into(),
        policies,
    }
}

#[test]
fn removes_exactly_the_entries_older_than_the_policy() {
    let result = expire(MEMORY, &options(vec![policy("Current Priorities", 30)]));
    assert_eq!(
        result.content,
        "## Current Priorities\nRaw note that never expires\n- 2025-05-02: Ship v2\n- 2025-07-01: Dated in the future\n\n## Decisions\n- 2020-01-01: Use Rust\n\n## current   PRIORITIES!"
    );
    let archived: Vec<(&str, &str, &str)> = result
        .archived
        .iter()
        .map(|e| (e.section.as_str(), e.date.as_str(), e.text.as_str()))
        .collect();
    assert_eq!(
        archived,
        [
            ("Current Priorities", "2025-01-01", "Ship v1"),
            (
                "current   PRIORITIES!",
                "2025-04-01",
                "Duplicate-titled section, same policy"
            ),
        ]
    );
}

#[test]
fn the_age_limit_is_inclusive_and_the_strictest_policy_wins() {
    // 2025-05-02 is 30 days before 2025-06-01: kept at 30, expired at 29.
    let kept = expire(MEMORY, &options(vec![policy("current priorities", 30)]));
    assert!(kept.content.contains("Ship v2"));
    let both = expire(
        MEMORY,
        &options(vec![
            policy("current priorities", 365),
            policy("Current Priorities", 29),
        ]),
    );
    assert!(!both.content.contains("Ship v2"));
    assert_eq!(both.archived.len(), 3);
}

#[test]
fn a_zero_age_expires_everything_before_today() {
    let text = "## Log\n- 2025-05-31: yesterday\n- 2025-06-01: today";
    let result = expire(text, &options(vec![policy("Log", 0)]));
    assert_eq!(result.content, "## Log\n- 2025-06-01: today");
}

#[test]
fn without_a_matching_policy_only_the_canonical_form_changes() {
    let text = "preamble\n## Facts  \n- (2024-01-02) [fact] legacy\n\n\n";
    let result = expire(text, &options(vec![policy("Decisions", 0)]));
    assert_eq!(result.content, render(text));
    assert!(result.archived.is_empty());
    let none = expire(MEMORY, &options(vec![]));
    assert_eq!(none.content, render(MEMORY));
}

fn memory() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        5 => (2024u32..2026, 1u32..13, 1u32..29, "[a-z ]{1,12}")
            .prop_map(|(y, m, d, t)| format!("- {y:04}-{m:02}-{d:02}: x{t}")),
        1 => "[a-z ]{0,12}",
        1 => prop::sample::select(vec!["## Log", "## Facts", "## LOG!", "```"]).prop_map(str::to_owned),
        1 => ".{0,12}",
    ];
    prop::collection::vec(line, 0..30).prop_map(|l| l.join("\n"))
}

fn entries(text: &str) -> Vec<(String, String, String)> {
    let doc = parse(text);
    doc.sections
        .iter()
        .flat_map(|s| {
            s.lines
                .iter()
                .filter_map(Line::as_entry)
                .map(|e| (s.title.to_string(), e.date.to_string(), e.text.to_string()))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn expiry_is_exact_and_idempotent(text in memory(), days in 0u64..500) {
        let opts = options(vec![policy("log", days)]);
        let result = expire(&text, &opts);
        // Idempotent.
        let again = expire(&result.content, &opts);
        prop_assert!(again.archived.is_empty());
        prop_assert_eq!(&again.content, &result.content);
        prop_assert_eq!(render(&result.content), result.content.clone());
        // Exact: the entries before are the entries after plus the archived
        // ones, each in document order.
        let before = entries(&text);
        let after = entries(&result.content);
        let archived: Vec<(String, String, String)> = result
            .archived
            .iter()
            .map(|e| (e.section.clone(), e.date.clone(), e.text.clone()))
            .collect();
        let mut rebuilt: Vec<_> = Vec::new();
        let (mut a, mut x) = (after.iter().peekable(), archived.iter().peekable());
        for e in &before {
            if x.peek() == Some(&e) {
                x.next();
                rebuilt.push(e.clone());
            } else if a.peek() == Some(&e) {
                a.next();
                rebuilt.push(e.clone());
            }
        }
        prop_assert_eq!(rebuilt.len(), before.len());
        prop_assert_eq!(after.len() + archived.len(), before.len());
        // Only expired entries of matching sections are archived.
        for (section, date, _) in &archived {
            prop_assert_eq!(memdoc::normalize_heading(section), "log");
            prop_assert!(date.as_str() < "2025-06-01");
        }
        // Everything but entries is untouched.
        let others = |t: &str| -> Vec<String> {
            render(t).lines().filter(|l| memdoc::parse_entry(l, memdoc::Span::new(0, 0)).is_none()).map(str::to_owned).collect()
        };
        let kept_lines = others(&result.content);
        for line in others(&text) {
            if !line.is_empty() {
                prop_assert!(kept_lines.contains(&line), "{line:?} lost");
            }
        }
    }
}

#[test]
fn typed_options_are_checked_with_codes() {
    let typed = [
        ExpireOptions {
            today: "2025-06-31".into(),
            ..options(vec![])
        },
        options(vec![policy("Log", 3), policy("🎯", 3)]),
    ];
    for (options, code) in typed
        .iter()
        .zip(["options/invalid-date", "options/invalid-policy"])
    {
        assert_eq!(options.check().unwrap_err().code(), code, "{options:?}");
    }
    assert_eq!(options(vec![policy("Log", 0)]).check(), Ok(()));
}
