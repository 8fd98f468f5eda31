//! Save plans (docs/FORMAT.md §10): sentinels, fenced replies, preamble, erase
//! protection, statuses and `changed`.

use memdoc::{
    is_sentinel, plan_save, render, Code, LineIndex, SaveOptions, SavePlan, SaveStatus, Scope,
    ValidateOptions, NO_OP_SENTINELS,
};

const PREVIOUS: &str = "## Facts\n- 2025-01-01: Office is in Seattle";

fn opts(previous: Option<&str>, scope: Scope, allow_erase: bool) -> SaveOptions {
    SaveOptions {
        validate: ValidateOptions {
            scope,
            previous: previous.map(str::to_owned),
            ..ValidateOptions::default()
        },
        allow_erase,
    }
}

fn save(updated: &str, previous: Option<&str>) -> SavePlan {
    plan_save(updated, &opts(previous, Scope::User, false))
}

fn codes(plan: &SavePlan) -> Vec<&'static str> {
    plan.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn a_sentinel_is_its_text_upper_cased_as_unicode() {
    // `is_sentinel` upper-cases as ASCII. That is Unicode upper-casing for
    // every text that can be a sentinel as long as no character outside
    // ASCII upper-cases to characters of the sentinels only.
    let alphabet: Vec<char> = NO_OP_SENTINELS.iter().flat_map(|s| s.chars()).collect();
    for c in (0x80..=0x10_FFFF_u32).filter_map(char::from_u32) {
        assert!(
            !c.to_uppercase().all(|u| alphabet.contains(&u)),
            "{c:?} upper-cases to sentinel characters"
        );
    }
    for reply in [
        "NO_UPDATſ",
        "no_upda\u{1e9e}",
        "ＮＯ_UPDATE",
        "NO\u{a0}UPDATE",
        "NO_CHANGE\u{fe0f}",
    ] {
        assert!(!is_sentinel(reply), "{reply:?}");
    }
    assert!(
        is_sentinel("\u{3000}No Update\u{2028}"),
        "Unicode white space is trimmed"
    );
}

#[test]
fn sentinels_keep_the_previous_document() {
    assert_eq!(
        NO_OP_SENTINELS,
        ["NO_UPDATE", "NO UPDATE", "NO_CHANGE", "NO CHANGE"],
        "should keep the four sentinels"
    );
    for reply in [
        "NO_UPDATE",
        "  no update \n",
        "No_Change",
        "\r\nNO CHANGE\t",
    ] {
        assert!(is_sentinel(reply), "should see {reply:?} as a sentinel");
        let plan = save(reply, Some(PREVIOUS));
        assert_eq!(
            plan.status,
            SaveStatus::NoOp,
            "should be a no-op for {reply:?}"
        );
        assert_eq!(
            plan.content, PREVIOUS,
            "should keep the previous content for {reply:?}"
        );
        assert!(!plan.changed, "should not change for {reply:?}");
        assert_eq!(
            codes(&plan),
            Vec::<&str>::new(),
            "should have no findings for {reply:?}"
        );
        assert_eq!(
            plan.usage.chars,
            PREVIOUS.chars().count(),
            "should measure the kept content"
        );
    }
    for reply in [
        "NO-UPDATE",
        "NO_UPDATE.",
        "NOUPDATE",
        "NO  UPDATE",
        "Nothing new to remember.",
    ] {
        assert!(
            !is_sentinel(reply),
            "should not see {reply:?} as a sentinel"
        );
        let plan = save(reply, Some(PREVIOUS));
        assert_eq!(plan.status, SaveStatus::Rejected, "should reject {reply:?}");
        assert_eq!(
            plan.content, PREVIOUS,
            "should keep the previous content for {reply:?}"
        );
    }
    let plan = save("NO_UPDATE", None);
    assert_eq!(
        (plan.status, plan.content.as_str(), plan.changed),
        (SaveStatus::NoOp, "", false),
        "should be a no-op without a previous document"
    );
}

#[test]
fn saves_the_canonical_form() {
    let updated = "## Facts  \r\n- 2025-01-01: Office is in Seattle\r\n- (2025-02-01) [fact] New office  \r\n\r\n";
    let plan = save(updated, Some(PREVIOUS));
    assert_eq!(plan.status, SaveStatus::Saved, "should save");
    assert_eq!(
        plan.content,
        render(updated),
        "should store the canonical form"
    );
    assert_eq!(
        plan.content, "## Facts\n- 2025-01-01: Office is in Seattle\n- 2025-02-01: New office",
        "should be canonical"
    );
    assert!(plan.changed, "should report the change");
    assert_eq!(
        plan.usage.chars,
        plan.content.chars().count(),
        "should measure what is stored"
    );
    assert_eq!(plan.dropped, Vec::<String>::new(), "should drop nothing");
}

#[test]
fn unchanged_content_is_saved_but_not_changed() {
    let plan = save(&format!("{PREVIOUS}\n\n"), Some(PREVIOUS));
    assert_eq!(
        (plan.status, plan.changed),
        (SaveStatus::Saved, false),
        "should save without change"
    );
    let plan = save(PREVIOUS, None);
    assert_eq!(
        (plan.status, plan.changed),
        (SaveStatus::Saved, true),
        "should be a change over no previous document"
    );
}

#[test]
fn preamble_is_dropped_and_reported() {
    let updated = "Sure! Here is the updated memory:\n\n  (v2)\n- 2025-01-01: early entry\n## Facts\n- 2025-01-02: later";
    let plan = save(updated, None);
    assert_eq!(plan.status, SaveStatus::Saved, "should save");
    assert_eq!(
        plan.dropped,
        ["Sure! Here is the updated memory:", "  (v2)"],
        "should list the dropped lines"
    );
    assert_eq!(
        codes(&plan),
        ["structure/preamble-dropped", "structure/preamble-dropped"],
        "should warn per line"
    );
    assert_eq!(
        plan.content, "## Memory\n- 2025-01-01: early entry\n\n## Facts\n- 2025-01-02: later",
        "should keep the early entry"
    );
}

#[test]
fn fenced_reply_is_unwrapped() {
    let want = "## Facts\n- 2025-01-02: new";
    for (reply, what, want) in [
        ("```\n## Facts\n- 2025-01-02: new\n```", "backticks", want),
        (
            "```markdown\n## Facts\n- 2025-01-02: new\n```",
            "an info string",
            want,
        ),
        (
            "  \n~~~~md\r\n## Facts\r\n- 2025-01-02: new\r\n~~~~~\n\n",
            "tildes, CRLF and a longer closer",
            want,
        ),
        (
            "````\n## Facts\n```\n- 2025-01-02: new\n```\n````",
            "a nested shorter fence",
            "## Facts\n```\n- 2025-01-02: new\n```",
        ),
    ] {
        let plan = save(reply, Some(PREVIOUS));
        assert_eq!(
            plan.status,
            SaveStatus::Saved,
            "should save a reply in {what}"
        );
        assert_eq!(
            plan.content, want,
            "should store the fence's content, without the closing fence, for {what}"
        );
        assert!(
            !plan
                .diagnostics
                .iter()
                .any(|d| d.code == Code::UnclosedFence || d.code == Code::PreambleDropped),
            "should not see fences or preamble for {what}"
        );
    }
}

#[test]
fn not_one_fenced_block_is_not_unwrapped() {
    let plan = save("``\n## Facts\n``", None);
    assert_eq!(
        plan.content, "## Facts\n``",
        "should not take two backticks for a fence"
    );
    for reply in [
        "Here:\n```\n## Facts\n- 2025-01-02: new\n```",
        "```\n## A\n```\n```\n## B\n```",
        "```\n## Facts\n- 2025-01-02: new",
        "```\n## Facts\n~~~",
    ] {
        let plan = save(reply, Some(PREVIOUS));
        assert_eq!(
            plan.status,
            SaveStatus::Rejected,
            "should parse {reply:?} as it is, finding no heading outside the fence"
        );
        assert_eq!(
            plan.content, PREVIOUS,
            "should keep the previous content for {reply:?}"
        );
    }
}

#[test]
fn ranges_of_an_unwrapped_reply_point_into_the_original_text() {
    let reply = "\n  ```md\n## Facts\n- 2025-13-01: bad date\nprose\n```\n";
    let plan = save(reply, None);
    assert_eq!(plan.status, SaveStatus::Saved, "should save");
    assert_eq!(
        codes(&plan),
        ["entry/impossible-date"],
        "should flag the bad date"
    );
    let span = plan.diagnostics[0].span.expect("should have a range");
    assert_eq!(
        span.slice(reply),
        "2025-13-01",
        "should slice the bad date from the original reply"
    );
    let r = LineIndex::new(reply).range(span);
    assert_eq!(
        (r.start.line, r.start.column, r.end.column),
        (4, 3, 13),
        "should be line 4 of the original reply"
    );
    let crlf = "```\r\nHi there\r\n## A\r\n```";
    let plan = save(crlf, None);
    let span = plan.diagnostics[0].span.expect("should have a range");
    assert_eq!(
        (plan.diagnostics[0].code, span.slice(crlf)),
        (Code::PreambleDropped, "Hi there"),
        "should shift preamble ranges too"
    );
}

#[test]
fn empty_fenced_reply_would_erase() {
    let plan = save("```\n```", Some(PREVIOUS));
    assert_eq!(
        (plan.status, codes(&plan)),
        (
            SaveStatus::Rejected,
            vec!["diff/section-removed", "diff/shrink", "save/would-erase"]
        ),
        "should refuse to erase with an empty fence"
    );
}

#[test]
fn erase_needs_allow_erase() {
    for reply in ["", "   \n\r\n", "```\n```"] {
        let plan = save(reply, Some(PREVIOUS));
        assert_eq!(
            plan.status,
            SaveStatus::Rejected,
            "should reject erasing with {reply:?}"
        );
        assert_eq!(
            plan.content, PREVIOUS,
            "should keep the previous content for {reply:?}"
        );
        assert!(!plan.changed, "should not change for {reply:?}");
        let erase: Vec<_> = plan
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::WouldErase)
            .collect();
        assert_eq!(
            erase.len(),
            1,
            "should report would-erase once for {reply:?}"
        );
        assert_eq!(erase[0].span, None, "should be document-level");
        let plan = plan_save(reply, &opts(Some(PREVIOUS), Scope::User, true));
        assert_eq!(
            (plan.status, plan.content.as_str(), plan.changed),
            (SaveStatus::Saved, "", true),
            "should erase when allowed for {reply:?}"
        );
        assert!(
            !plan.diagnostics.iter().any(|d| d.code == Code::WouldErase),
            "should not report would-erase when allowed"
        );
    }
    let plan = save("", None);
    assert_eq!(
        (plan.status, codes(&plan)),
        (SaveStatus::Saved, vec![]),
        "should save empty over nothing"
    );
    let plan = save("", Some("\n\n"));
    assert_eq!(
        plan.status,
        SaveStatus::Saved,
        "should save empty over an empty memory"
    );
}

#[test]
fn heading_less_previous_memory_is_not_erased_silently() {
    // SurfSense stored short heading-less text; it renders to nothing but is
    // still a memory that an empty save would lose.
    let previous = "Nothing new to remember.";
    let plan = save("", Some(previous));
    assert_eq!(
        plan.status,
        SaveStatus::Rejected,
        "should refuse to erase a heading-less stored memory"
    );
    // The shrink is measured against the memory as stored (docs/FORMAT.md
    // §9), so it is reported here as for any memory with headings.
    assert_eq!(
        codes(&plan),
        ["diff/shrink", "save/would-erase"],
        "should say it would erase, and that the memory shrinks"
    );
    assert_eq!(plan.content, previous, "should keep it");
    let plan = plan_save("", &opts(Some(previous), Scope::User, true));
    assert_eq!(
        (plan.status, plan.content.as_str()),
        (SaveStatus::Saved, ""),
        "should erase when allowed"
    );
}

#[test]
fn heading_less_text_never_erases() {
    let plan = plan_save(
        "Nothing new to remember.",
        &opts(Some(PREVIOUS), Scope::User, true),
    );
    assert_eq!(
        plan.status,
        SaveStatus::Rejected,
        "should reject heading-less text even when erasing is allowed"
    );
    assert!(
        codes(&plan).contains(&"structure/missing-heading"),
        "should say why"
    );
}

#[test]
fn rejected_plan_keeps_previous_untouched() {
    let previous = "## Facts\r\n- 2025-01-01: non-canonical previous   \n\n";
    let plan = plan_save(
        "## Preferences\n- 2025-01-02: dark mode",
        &opts(Some(previous), Scope::Team, false),
    );
    assert_eq!(
        plan.status,
        SaveStatus::Rejected,
        "should reject a personal heading in team scope"
    );
    assert_eq!(
        plan.content, previous,
        "should hand back the previous text byte for byte"
    );
    assert!(!plan.changed, "should not change");
    assert_eq!(
        codes(&plan),
        ["diff/section-removed", "scope/personal-heading"],
        "should report the findings"
    );
    assert_eq!(
        plan.usage.chars,
        "## Preferences\n- 2025-01-02: dark mode".chars().count(),
        "should measure the proposal"
    );
}

#[test]
fn hard_limit_rejects_warnings_do_not() {
    let big = format!("## Facts\n- 2025-01-01: {}", "x".repeat(25_001));
    let plan = save(&big, Some(PREVIOUS));
    assert_eq!(
        (plan.status, codes(&plan)),
        (SaveStatus::Rejected, vec!["size/hard-limit"]),
        "should reject above hard"
    );
    let soft = format!("## Facts\n- 2025-01-01: {}", "x".repeat(18_000));
    let plan = save(&soft, Some(PREVIOUS));
    assert_eq!(
        (plan.status, codes(&plan)),
        (SaveStatus::Saved, vec!["size/soft-limit"]),
        "should save with a soft warning"
    );
    assert_eq!(plan.content, soft, "should store it");
}

#[test]
fn the_plan_carries_the_proposed_canonical_form_whatever_the_status() {
    let fenced = "```markdown\n## Facts   \n- (2025-01-02) [fact] x\n```";
    let plan = save(fenced, Some(PREVIOUS));
    assert_eq!(
        (plan.status, plan.proposed.as_str()),
        (SaveStatus::Saved, "## Facts\n- 2025-01-02: x"),
        "should propose the canonical form of the fence's inside"
    );
    assert_eq!(plan.proposed, plan.content, "should store what it proposes");

    let big = format!("```\n## Facts\n- 2025-01-01: {}\n```", "x".repeat(25_001));
    let plan = save(&big, Some(PREVIOUS));
    assert_eq!(
        plan.status,
        SaveStatus::Rejected,
        "should reject above hard"
    );
    assert_eq!(plan.content, PREVIOUS, "should keep the previous document");
    assert_eq!(
        plan.proposed,
        render(&big[4..big.len() - 4]),
        "should still carry what was proposed"
    );
    assert_eq!(
        plan.usage.chars,
        plan.proposed.chars().count(),
        "should measure the proposal"
    );

    let plan = save("NO_UPDATE", Some(PREVIOUS));
    assert_eq!(
        plan.proposed, PREVIOUS,
        "should propose the kept document for a no-op"
    );
}

#[test]
fn status_strings() {
    assert_eq!(
        [
            SaveStatus::Saved.as_str(),
            SaveStatus::NoOp.as_str(),
            SaveStatus::Rejected.as_str()
        ],
        ["saved", "no_op", "rejected"],
        "should name statuses"
    );
}
