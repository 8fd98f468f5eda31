//! Pathological inputs: huge documents, many headings, one enormous line,
//! many fence lines, many entries. Each must finish (validate, plan_save,
//! render, the prompt block), and time must grow linearly with the input.
//! Sizes go far past the limits; they run in plain `cargo test`
//! (debug build), so each case is timed and printed.

use std::time::{Duration, Instant};

use memdoc::{
    injection_block, plan_save, render, validate, InjectOptions, SaveOptions, SaveStatus, Scope,
    ValidateOptions,
};

fn team(previous: Option<&str>) -> ValidateOptions {
    ValidateOptions {
        scope: Scope::Team,
        previous: previous.map(str::to_owned),
        ..ValidateOptions::default()
    }
}

/// Run the whole pipeline once; return the canonical length for checks.
fn pipeline(text: &str, previous: Option<&str>) -> (usize, SaveStatus) {
    let report = validate(text, &team(previous));
    let plan = plan_save(
        text,
        &SaveOptions {
            validate: team(previous),
            allow_erase: false,
        },
    );
    let canonical = render(text);
    assert_eq!(
        canonical, report.canonical,
        "should render what validate reports"
    );
    let block = injection_block(
        &canonical,
        &InjectOptions {
            scope: Scope::Team,
            ..InjectOptions::default()
        },
    );
    assert!(
        block.len() >= canonical.len(),
        "should build the prompt block"
    );
    (canonical.len(), plan.status)
}

fn timed(what: &str, text: &str, previous: Option<&str>) -> (usize, SaveStatus) {
    let start = Instant::now();
    let got = pipeline(text, previous);
    eprintln!("{what}: {} bytes in {:?}", text.len(), start.elapsed());
    got
}

fn entries(n: usize) -> String {
    let mut s = String::from("## Facts\n");
    for i in 0..n {
        s.push_str(&format!(
            "- 2025-01-{:02}: fact number {i} about the project\n",
            i % 28 + 1
        ));
    }
    s
}

#[test]
fn ten_megabyte_document() {
    let mut text = String::with_capacity(10 * 1024 * 1024 + 200);
    let mut i = 0;
    while text.len() < 10 * 1024 * 1024 {
        text.push_str(&format!("## Section {i}\n- 2025-03-15: entry {i} with some text é中😀\nraw line {i}\n```\n## fenced {i}\n```\n\n"));
        i += 1;
    }
    let (len, status) = timed(
        "10 MB document",
        &text,
        Some("## Section 0\n- 2025-01-01: x"),
    );
    assert!(len > 9 * 1024 * 1024, "should keep nearly everything");
    assert_eq!(
        status,
        SaveStatus::Rejected,
        "should reject a save above the hard limit"
    );
}

#[test]
fn hundred_thousand_headings() {
    let text: String = (0..100_000)
        .map(|i| format!("## Heading {}\n", i % 50_000))
        .collect();
    let (len, status) = timed("100k headings", &text, None);
    assert!(
        len > text.len(),
        "should keep every heading and add blank lines"
    );
    assert_eq!(
        status,
        SaveStatus::Rejected,
        "should reject a save above the hard limit"
    );
}

#[test]
fn one_megabyte_line() {
    let line = "word <team_memory> ".repeat(1024 * 1024 / 19);
    let text = format!("## Long\n- 2025-01-01: {line}\n- {line}\n{line}");
    let (len, _) = timed("1 MB lines", &text, None);
    assert!(len > 3 * 1000 * 1000, "should keep the long lines");
    let start = Instant::now();
    let block = injection_block(&text, &InjectOptions::default());
    eprintln!("1 MB lines prompt block: {:?}", start.elapsed());
    assert_eq!(
        block.matches("<user_memory").count(),
        1,
        "should escape every reserved tag in a long line"
    );
    let single = "x".repeat(1024 * 1024);
    let (len, _) = timed(
        "1 MB line without a heading",
        &single,
        Some("## A\n- 2025-01-01: x"),
    );
    assert_eq!(len, 0, "should render a heading-less line to nothing");
}

#[test]
fn ten_thousand_fence_lines() {
    let mut text = String::from("## Code\n");
    for i in 0..10_000 {
        text.push_str(if i % 2 == 0 {
            "```\n## hidden\n"
        } else {
            "```\n- 2025-01-01: seen\n"
        });
    }
    let (len, _) = timed("10k fence lines", &text, None);
    assert!(len > 0, "should keep the fences");
    let deep: String = (0..10_000)
        .map(|i| format!("{}\n", "`".repeat(3 + i % 50)))
        .collect();
    let reply = format!("````````````````````````````````````````````````````````````\n## A\n{deep}\n````````````````````````````````````````````````````````````");
    let start = Instant::now();
    let plan = plan_save(&reply, &SaveOptions::default());
    eprintln!(
        "10k fence lines in a fenced reply: {} bytes in {:?}",
        reply.len(),
        start.elapsed()
    );
    let codes: Vec<&str> = plan.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["size/hard-limit"],
        "should unwrap the reply (no preamble, no open fence) and only find it too large"
    );
}

#[test]
fn hundred_thousand_entries_in_one_section() {
    let text = entries(100_000);
    let (len, status) = timed("100k entries", &text, Some(&entries(10)));
    assert!(len > 3 * 1000 * 1000, "should keep every entry");
    assert_eq!(
        status,
        SaveStatus::Rejected,
        "should reject a save above the hard limit"
    );
}

/// CPU time of this thread in nanoseconds (`/proc/thread-self/schedstat`),
/// so that other processes on a busy machine do not count; wall time where
/// that file does not exist.
fn cpu_now() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Best of `n` measurements of one call of `f`, to resist noise from other
/// processes. Each measurement repeats `f` until 20 ms have passed: the CPU
/// counter only moves when the scheduler updates it, so a single short call
/// can read as 0 ns.
fn best_of(n: usize, f: impl Fn()) -> Duration {
    (0..n)
        .map(|_| {
            let (wall, cpu) = (Instant::now(), cpu_now());
            let mut runs = 0;
            loop {
                f();
                runs += 1;
                let spent = match (cpu, cpu_now()) {
                    (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
                    _ => wall.elapsed(),
                };
                if spent >= Duration::from_millis(20) || wall.elapsed() >= Duration::from_secs(2) {
                    break spent / runs;
                }
            }
        })
        .min()
        .unwrap_or_default()
}

fn assert_linear(what: &str, make: impl Fn(usize) -> String) {
    let small = make(1);
    let large = make(16);
    let t1 = best_of(7, || {
        pipeline(&small, Some(&small));
    });
    let t16 = best_of(2, || {
        pipeline(&large, Some(&large));
    });
    let ratio = t16.as_secs_f64() / t1.as_secs_f64().max(1e-9);
    eprintln!(
        "{what}: 1x {} bytes {t1:?}, 16x {} bytes {t16:?}, ratio {ratio:.1}",
        small.len(),
        large.len()
    );
    assert!(
        ratio < 64.0,
        "{what}: 16x the input should take less than 64x the time, took {ratio:.1}x"
    );
}

#[test]
fn time_grows_linearly() {
    assert_linear("entries", |k| entries(1_000 * k));
    assert_linear("headings", |k| {
        (0..1_500 * k)
            .map(|i| format!("## Heading {i}\n"))
            .collect()
    });
    assert_linear("fences", |k| {
        "```\n## hidden\n- 2025-01-01: x\n".repeat(1_000 * k)
    });
    assert_linear("one long line", |k| {
        format!(
            "## A\n- 2025-01-01: {}",
            "ab <team_memory> ".repeat(3_000 * k)
        )
    });
    assert_linear("preamble", |k| {
        "Sure, here you go:\n- not an entry\n".repeat(1_000 * k)
    });
    assert_linear("white space", |k| {
        format!("## A\n{}x", " \t\r\n".repeat(8_000 * k))
    });
}
