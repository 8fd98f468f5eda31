//! Golden snapshots over `tests/fixtures/*.md`: for each fixture, the parsed
//! document (as the JSON view JavaScript gets), and in one readable text
//! snapshot the findings of `validate` and `plan_save` (team scope, against
//! `tests/fixtures/previous/<name>.md` when it exists), the canonical text and
//! the team and user prompt blocks.
//!
//! Review a change with `INSTA_UPDATE=always cargo test -p memdoc-wasm
//! --test golden` and
//! `git diff`; CI runs with `INSTA_UPDATE=no`.
// Native only: insta is a native dev-dependency, and it reads files.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write as _;

use memdoc::{
    injection_block, parse, plan_save, validate, Diagnostic, InjectOptions, LineIndex, SaveOptions,
    Scope, ValidateOptions,
};
use memdoc_wasm::js::view::DocumentView;

/// The document view as JSON, each range written compactly as
/// `line:column-line:column @offset..offset` (UTF-16, end exclusive).
fn document_json(text: &str) -> serde_json::Value {
    fn compact(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if key == "range" {
                        let p =
                            |end: &str, field: &str| value[end][field].as_u64().unwrap_or_default();
                        *value = format!(
                            "{}:{}-{}:{} @{}..{}",
                            p("start", "line"),
                            p("start", "column"),
                            p("end", "line"),
                            p("end", "column"),
                            p("start", "offset"),
                            p("end", "offset")
                        )
                        .into();
                    } else {
                        compact(value);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(compact),
            _ => {}
        }
    }
    let mut value = serde_json::to_value(DocumentView::new(&parse(text), text))
        .expect("should serialize the view");
    compact(&mut value);
    value
}

/// Control characters and line separators as escapes, so that a snapshot
/// shows them and no tool rewrites them.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' => "\n".to_owned(),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                format!("\\u{{{:x}}}", u32::from(c))
            }
            c => c.to_string(),
        })
        .collect()
}

fn diagnostics(out: &mut String, text: &str, ds: &[Diagnostic]) {
    let index = LineIndex::new(text);
    if ds.is_empty() {
        out.push_str("  (none)\n");
    }
    for d in ds {
        let at = d.span.map_or_else(
            || "document".to_owned(),
            |s| {
                let r = index.range(s);
                format!(
                    "{}:{}-{}:{}",
                    r.start.line, r.start.column, r.end.line, r.end.column
                )
            },
        );
        let _ = writeln!(out, "  {at} {} {}", d.severity.as_str(), d.code);
    }
}

fn report(name: &str, text: &str, previous: Option<&str>) -> String {
    let validate_options = ValidateOptions {
        scope: Scope::Team,
        previous: previous.map(str::to_owned),
        ..ValidateOptions::default()
    };
    let report = validate(text, &validate_options);
    let plan = plan_save(
        text,
        &SaveOptions {
            validate: validate_options,
            allow_erase: false,
        },
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "fixture: {name}.md (team scope, previous: {})",
        if previous.is_some() { "yes" } else { "no" }
    );
    let _ = writeln!(
        out,
        "usage: {} chars, {} bytes, {}",
        report.usage.chars,
        report.usage.utf8_bytes,
        report.usage.level.as_str()
    );
    out.push_str("validate:\n");
    diagnostics(&mut out, text, &report.diagnostics);
    let _ = writeln!(
        out,
        "plan_save: {}, changed: {}",
        plan.status.as_str(),
        plan.changed
    );
    diagnostics(&mut out, text, &plan.diagnostics);
    for line in &plan.dropped {
        let _ = writeln!(out, "  dropped: {}", visible(line));
    }
    if plan.content != report.canonical {
        let _ = write!(out, "--- plan content\n{}\n", visible(&plan.content));
    }
    let _ = write!(out, "--- canonical\n{}\n", visible(&report.canonical));
    let team = injection_block(
        &report.canonical,
        &InjectOptions {
            scope: Scope::Team,
            ..InjectOptions::default()
        },
    );
    let user = injection_block(
        &report.canonical,
        &InjectOptions {
            scope: Scope::User,
            user_name: Some("Ada Lovelace".to_owned()),
            ..InjectOptions::default()
        },
    );
    let _ = write!(
        out,
        "--- team prompt\n{}\n--- user prompt\n{}\n",
        visible(&team),
        visible(&user)
    );
    out
}

/// Every fixture is checked even when an earlier one fails (`insta::glob!`
/// collects the failures and reports them together at the end).
#[test]
fn fixtures_match_their_snapshots() {
    let mut count = 0;
    insta::glob!("../../../tests/fixtures", "*.md", |path| {
        count += 1;
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("should have a UTF-8 name")
            .to_owned();
        let text = std::fs::read_to_string(path).expect("should read the fixture");
        let previous_path = path.with_file_name("previous").join(format!("{name}.md"));
        let previous = std::fs::read_to_string(&previous_path).ok();
        let mut settings = insta::Settings::clone_current();
        // The snapshots are named for their fixture already.
        settings.remove_snapshot_suffix();
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| {
            insta::assert_json_snapshot!(format!("{name}.document"), document_json(&text));
            insta::assert_snapshot!(
                format!("{name}.report"),
                report(&name, &text, previous.as_deref())
            );
        });
    });
    assert!(
        count >= 25,
        "should have at least 25 fixtures, found {count}"
    );
}
