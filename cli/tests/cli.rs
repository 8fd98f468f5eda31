//! The command line's engine (`memdoc_cli`, docs/CLI.md) natively: the
//! report formats, the diff, the merge driver's markers for every kind of
//! conflict, and the hub's answers. test-js/cli*.test.mjs run the two
//! front ends over it. Native only: in WebAssembly the engine is the
//! package's bin's module (cli/wasm/).
#![cfg(not(target_arch = "wasm32"))]

use memdoc::{Scope, ValidateOptions};
use memdoc_cli::check::{check, Format, Style};
use memdoc_cli::hub::{self, Answer, Push, Target};
use memdoc_cli::{diff, exit, markers, run};

fn team() -> ValidateOptions {
    ValidateOptions {
        scope: Scope::Team,
        ..ValidateOptions::default()
    }
}

#[test]
fn human_report_points_at_the_range() {
    let text = "## Decisions\n- 2025-03-01: ok\n## Preferences\n- 2025-01-01: x";
    let checked = check("M.md", text, &team(), Style::default());
    assert_eq!(
        (checked.errors, checked.warnings, checked.failed),
        (1, 0, true)
    );
    let lines: Vec<&str> = checked.output.lines().collect();
    assert!(
        lines[0].starts_with("M.md:3:1: error scope/personal-heading: "),
        "should give file:line:col: {}",
        lines[0]
    );
    assert_eq!(lines[1], " 3 | ## Preferences", "should show the line");
    assert_eq!(
        lines[2], "   | ^^^^^^^^^^^^^^",
        "should put carets under it"
    );
    assert!(lines[3].starts_with("   = help: "), "should give the help");
}

#[test]
fn colour_only_when_asked() {
    let text = "## Preferences\n- 2025-01-01: x";
    let plain = check("M.md", text, &team(), Style::default());
    assert!(!plain.output.contains('\u{1b}'), "should have no colour");
    let coloured = check(
        "M.md",
        text,
        &team(),
        Style {
            colour: true,
            ..Style::default()
        },
    );
    assert!(
        coloured.output.contains("\u{1b}[1;31merror\u{1b}[0m"),
        "should colour the severity"
    );
}

#[test]
fn whole_document_findings_have_no_position() {
    let text = format!("## Notes\n- 2025-01-01: {}", "x".repeat(19_000));
    let checked = check("M.md", &text, &ValidateOptions::default(), Style::default());
    assert!(
        checked
            .output
            .starts_with("M.md: warning size/soft-limit: The memory uses"),
        "{}",
        checked.output
    );
    assert!(!checked.failed, "a warning should not fail");
    let denied = check(
        "M.md",
        &text,
        &ValidateOptions::default(),
        Style {
            deny_warnings: true,
            ..Style::default()
        },
    );
    assert!(denied.failed, "a denied warning should fail");
}

#[test]
fn github_annotations_escape_their_fields() {
    let checked = check(
        "a,b:c%.md",
        "## Preferences\n- 2025-01-01: x",
        &team(),
        Style {
            format: Format::Github,
            ..Style::default()
        },
    );
    assert!(
        checked.output.starts_with(
            "::error file=a%2Cb%3Ac%25.md,line=1,col=1,endLine=1,endColumn=15,title=scope/personal-heading::"
        ),
        "{}",
        checked.output
    );
    assert!(
        checked.output.contains("%0Ahelp: "),
        "should put the help on a second line"
    );
    assert_eq!(
        checked.output.lines().count(),
        1,
        "should be one line per finding"
    );
}

#[test]
fn json_is_one_line_per_file() {
    let checked = check(
        "M\"d.md",
        "## Notes\n- 2025-01-01: é😀\n-  nope",
        &ValidateOptions::default(),
        Style {
            format: Format::Json,
            ..Style::default()
        },
    );
    assert_eq!(checked.output.lines().count(), 1);
    assert!(checked
        .output
        .starts_with(r#"{"file":"M\"d.md","ok":true,"usage":{"chars":"#));
    assert!(
        checked.output.contains(
            r#""range":{"start":{"line":3,"column":1,"offset":27},"end":{"line":3,"column":8,"offset":34}}"#
        ),
        "should count UTF-16 units: {}",
        checked.output
    );
}

#[test]
fn formats_and_scopes_are_checked() {
    let bad = run::check("M.md", "", None, Some("admin"), None, false, [false; 2]);
    assert_eq!(bad.exit, exit::USAGE);
    assert_eq!(
        bad.stderr,
        "memdoc: invalid scope \"admin\": expected \"user\" or \"team\" (options/invalid-scope)\n"
    );
    let bad = run::check("M.md", "", None, None, Some("xml"), false, [false; 2]);
    assert_eq!(bad.exit, exit::USAGE);
}

#[test]
fn diff_hunks_apart_and_joined() {
    let before: String = (1..=20).map(|n| format!("line {n}\n")).collect();
    let after = before
        .replace("line 2\n", "line two\n")
        .replace("line 18\n", "");
    let got = diff::unified("f", &before, &after);
    let headers: Vec<&str> = got.lines().filter(|l| l.starts_with("@@")).collect();
    assert_eq!(headers, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,5 @@"]);
    assert_eq!(
        diff::unified("f", &before, &before),
        "",
        "the same text has no diff"
    );
    let added = diff::unified("f", "", "## A\n");
    assert_eq!(added, "--- f\n+++ f\t(canonical)\n@@ -0,0 +1,1 @@\n+## A\n");
}

#[test]
fn fmt_never_drops_text_unless_asked_and_says_what_it_changed() {
    let text = "Here is the updated memory:\n## A\n- 2025-01-01: x";
    let kept = run::fmt("M.md", text, false, false, false);
    assert_eq!(
        kept.write, None,
        "a file with text to drop should be left as it is"
    );
    assert_eq!(kept.exit, exit::FINDINGS);
    assert_eq!(
        kept.stderr,
        "memdoc: M.md: would drop a line before the first heading: \"Here is the updated memory:\"\n\
         memdoc: M.md: left as it is: move those lines under a heading, or pass --drop-preamble to drop them\n"
    );
    let piped = run::fmt("-", text, false, true, false);
    assert_eq!(
        (piped.stdout.as_str(), piped.exit),
        (text, exit::FINDINGS),
        "standard output gets the text unchanged"
    );
    let done = run::fmt("M.md", text, false, false, true);
    assert_eq!(done.write.as_deref(), Some("## A\n- 2025-01-01: x\n"));
    assert_eq!(done.exit, exit::OK);
    assert_eq!(
        done.stderr,
        "memdoc: M.md: dropped a line before the first heading: \"Here is the updated memory:\"\nmemdoc: M.md: reformatted\n"
    );
    let same = run::fmt("M.md", "## A\n- 2025-01-01: x\n", false, false, false);
    assert_eq!(
        (same.write, same.stderr.as_str()),
        (None, ""),
        "a canonical file should not be written"
    );
    let checked = run::fmt("M.md", "## A  \n", true, false, false);
    assert_eq!((checked.exit, checked.write), (exit::FINDINGS, None));
    assert_eq!(
        run::fmt_summary(1, 2, 0),
        "memdoc: 1 file reformatted, 2 files left unchanged\n"
    );
    assert_eq!(
        run::fmt_summary(0, 0, 1),
        "memdoc: 1 file not reformatted (text would be dropped)\n"
    );
    assert_eq!(run::fmt_summary(0, 0, 0), "");
}

#[test]
fn deny_losses_fails_a_check_that_removes_sections_or_shrinks() {
    let previous = "## Decisions\n- 2025-03-01: Use PostgreSQL 16 for every service we run\n- 2025-03-02: Deploy on Tuesdays after the weekly review\n\n## Facts\n- 2025-03-03: The office is in Oslo, on the fourth floor\n- 2025-03-04: The team has six engineers and one designer\n\n## Conventions\n- 2025-03-05: Code review needs two approvals before a merge\n";
    let now = "## Decisions\n- 2025-03-01: Use PostgreSQL 16\n";
    // The team check of `text` against `previous`, losses denied or not.
    let checked = |text: &str, previous: Option<&str>, deny_losses: bool| {
        run::check(
            "M.md",
            text,
            previous,
            Some("team"),
            None,
            false,
            [false, deny_losses],
        )
    };
    let lenient = checked(now, Some(previous), false);
    assert_eq!(
        lenient.exit,
        exit::OK,
        "warnings alone pass: {}",
        lenient.stdout
    );
    let strict = checked(now, Some(previous), true);
    assert_eq!(strict.exit, exit::FINDINGS);
    for code in ["error diff/section-removed", "error diff/shrink"] {
        assert!(strict.stdout.contains(code), "{code}: {}", strict.stdout);
    }
    let dropped = checked("Sure:\n## A\n- 2025-01-01: x\n", None, true);
    assert!(
        dropped.stdout.contains("error structure/preamble-dropped"),
        "{}",
        dropped.stdout
    );
    let unchanged = checked(previous, Some(previous), true);
    assert_eq!((unchanged.exit, unchanged.stdout.as_str()), (exit::OK, ""));
}

#[test]
fn every_kind_of_conflict_gets_its_markers() {
    let base = "## Notes\n- 2025-01-01: a\n\n## Other\nx\n";
    // Titles rewritten differently.
    let m = markers::merged(
        "M",
        base,
        &base.replace("## Notes", "## Notes!"),
        &base.replace("## Notes", "## notes?"),
    );
    assert!(!m.clean);
    assert!(m.content.starts_with("<<<<<<< ours\n## Notes!\n||||||| base\n## Notes\n=======\n## notes?\n>>>>>>> theirs\n- 2025-01-01: a\n"), "{}", m.content);
    assert!(m.summary.contains("title rewritten differently"));
    // Ours changed a section theirs removed: ours' section between the markers.
    let ours = "## Notes\n- 2025-01-01: a\n- 2025-01-02: b\n\n## Other\nx\n";
    let m = markers::merged("M", base, ours, "## Other\nx\n");
    assert!(m.content.starts_with("<<<<<<< ours\n## Notes\n- 2025-01-01: a\n- 2025-01-02: b\n||||||| base\n## Notes\n- 2025-01-01: a\n=======\n>>>>>>> theirs\n"), "{}", m.content);
    // Ours removed a section theirs changed: the block at the end.
    let theirs = "## Notes\n- 2025-01-01: a\n- 2025-01-03: c\n\n## Other\nx\n";
    let m = markers::merged("M", base, "## Other\nx\n", theirs);
    assert!(m.content.ends_with("## Other\nx\n\n<<<<<<< ours\n||||||| base\n## Notes\n- 2025-01-01: a\n=======\n## Notes\n- 2025-01-01: a\n- 2025-01-03: c\n>>>>>>> theirs\n"), "{}", m.content);
    assert!(m.summary.contains("section removed on one side"));
    // A clean merge: the file form, no summary.
    let m = markers::merged("M", base, base, &base.replace("x\n", "x\ny\n"));
    assert!(m.clean);
    assert_eq!(m.content, "## Notes\n- 2025-01-01: a\n\n## Other\nx\ny\n");
    assert_eq!(m.summary, "");
}

fn answer(status: u16, body: &str) -> Answer<'_> {
    Answer {
        status,
        body,
        retry_after: Some("12"),
    }
}

#[test]
fn hub_paths_are_encoded() {
    let target = Target {
        team: "acme",
        scope: "user",
        id: "a b/é@x:y",
    };
    assert_eq!(
        target.path("/history"),
        "/v1/teams/acme/memories/user/a%20b%2F%C3%A9@x:y/history"
    );
    assert_eq!(hub::base(" http://h:1/ "), "http://h:1");
    assert_eq!(hub::if_match("7").unwrap(), "\"7\"");
    assert_eq!(hub::if_match("07").unwrap_err().exit, exit::USAGE);
}

#[test]
fn hub_problems_are_one_line_with_their_exit_code() {
    let problem = |status, code: &str, extra: &str| {
        let body = format!(
            r#"{{"type":"about:blank","title":"t","status":{status},"detail":"It failed.","code":"{code}"{extra}}}"#
        );
        hub::problem(answer(status, &body))
    };
    let o = problem(401, "auth/invalid-key", "");
    assert_eq!(
        (o.stderr.as_str(), o.exit),
        (
            "memdoc: hub: auth/invalid-key: It failed.; check MEMDOC_HUB_KEY (a key of this hub, not revoked)\n",
            exit::HUB_REFUSED
        )
    );
    let o = problem(429, "rate/limited", "");
    assert!(o.stderr.ends_with("; retry in 12 seconds\n"));
    let o = problem(
        422,
        "save/rejected",
        r#","diagnostics":[{"code":"size/hard-limit","severity":"error"},{"code":"entry/nonstandard","severity":"warning"}],"usage":{"chars":1}"#,
    );
    assert_eq!(o.exit, exit::FINDINGS);
    assert!(
        o.stderr.contains("; fix size/hard-limit (below)"),
        "{}",
        o.stderr
    );
    let o = problem(503, "store/host-failed", "");
    assert_eq!(o.exit, exit::HUB_FAILED);
    let o = hub::problem(answer(404, "<html>not the hub</html>"));
    assert_eq!(o.exit, exit::HUB_FAILED);
    assert!(o.stderr.contains("is MEMDOC_HUB_URL the hub's URL?"));
}

#[test]
fn a_stale_push_says_who_saved_what_and_how_to_merge() {
    let push = Push {
        file: "M.md",
        text: "## A\n",
        target: Target {
            team: "acme",
            scope: "team",
            id: "eng",
        },
        revision: "3",
        merge: false,
    };
    let stale = answer(
        412,
        r#"{"code":"http/precondition-failed","detail":"d","currentRevision":5}"#,
    );
    assert!(hub::needs_current(stale));
    let current = answer(
        200,
        r###"{"content":"## A","revision":5,"updatedAt":"2026-01-01T00:00:00.000Z","updatedBy":"bob","usage":{"chars":4}}"###,
    );
    let o = hub::pushed(&push, stale, Some(current));
    assert_eq!(o.exit, exit::FINDINGS);
    assert_eq!(
        o.stderr,
        "memdoc: hub: http/precondition-failed: M.md was edited from revision 3, but bob saved revision 5 at 2026-01-01T00:00:00.000Z since; merge with `memdoc hub push M.md acme team eng --revision 3 --merge`, or pull it and redo the edit\n"
    );
    let saved = answer(
        200,
        r###"{"status":"saved","revision":4,"content":"## A\n- 2025-01-01: x","usage":{"chars":1},"diagnostics":[],"dropped":[],"notice":null}"###,
    );
    let o = hub::pushed(&push, saved, None);
    assert_eq!(o.stdout, "4\n");
    let with_preamble = answer(
        200,
        r###"{"status":"saved","revision":4,"content":"## A","usage":{"chars":1},"diagnostics":[],"dropped":["Sure:"],"notice":null}"###,
    );
    assert!(
        hub::pushed(&push, with_preamble, None)
            .stderr
            .contains("memdoc: M.md: dropped a line before the first heading: \"Sure:\"\n"),
        "what the hub did not keep should be said"
    );
    assert_eq!(
        o.write.as_deref(),
        Some("## A\n- 2025-01-01: x\n"),
        "the file should hold what the hub saved"
    );
}

#[test]
fn history_is_a_line_per_revision() {
    let body = r#"{"entries":[{"revision":2,"at":"T2","actor":"bob","chars":40,"delta":-3,"codes":["entry/nonstandard"],"archived":[{"section":"A","date":"2025-01-01","text":"x"}]},{"revision":1,"at":"T1","actor":null,"chars":43,"delta":43,"codes":[],"archived":[]}]}"#;
    let o = hub::history(answer(200, body));
    assert_eq!(
        o.stdout,
        "2\tT2\tbob\t40 characters (-3)\tentry/nonstandard\tarchived 1\n1\tT1\t-\t43 characters (+43)\n"
    );
}

#[test]
fn expiry_policies_from_the_command_line() {
    let o = run::expire(
        "M",
        "## Notes\n- 2025-01-01: old\n- 2025-05-30: new",
        &["Notes=30"],
        "2025-06-01",
    );
    assert_eq!(o.stdout, "## Notes\n- 2025-05-30: new\n");
    assert_eq!(o.stderr, "memdoc: M: expired [Notes] 2025-01-01: old\n");
    for bad in [&["Notes"][..], &["Notes=-1"], &["=3"]] {
        assert_eq!(
            run::expire("M", "", bad, "2025-06-01").exit,
            exit::USAGE,
            "{bad:?}"
        );
    }
    assert_eq!(
        run::expire("M", "", &["Notes=1"], "2025-13-01").exit,
        exit::USAGE
    );
}
