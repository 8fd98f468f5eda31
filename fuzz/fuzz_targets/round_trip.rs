//! parse -> validate -> render -> parse: on any input nothing panics, every
//! range is in bounds, rendering is a fixed point and the canonical form
//! parses back to the same sections, and saving never erases silently.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memdoc::{
    injection_block, parse, plan_save, render, validate, InjectOptions, SaveOptions, SaveStatus,
    Scope, ValidateOptions,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let doc = parse(&text);
    let options = ValidateOptions {
        scope: Scope::Team,
        previous: Some("## Facts\n- 2025-01-01: kept".to_owned()),
        ..ValidateOptions::default()
    };
    let report = validate(&text, &options);
    for d in &report.diagnostics {
        if let Some(span) = d.span {
            assert!(span.start <= span.end && span.end <= text.len());
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
    }
    let canonical = render(&text);
    assert_eq!(canonical, report.canonical);
    assert_eq!(canonical, doc.render());
    let again = parse(&canonical);
    assert_eq!(again.render(), canonical, "render must be idempotent");
    assert!(again.preamble.is_empty(), "canonical text has no preamble");
    let titles = |d: &memdoc::Document| {
        d.sections
            .iter()
            .map(|s| s.title.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(titles(&again), titles(&doc));
    let plan = plan_save(
        &text,
        &SaveOptions {
            validate: options,
            allow_erase: false,
        },
    );
    if plan.status == SaveStatus::Saved {
        assert!(!plan.content.is_empty(), "a save must not erase the memory");
    }
    let block = injection_block(
        &canonical,
        &InjectOptions {
            scope: Scope::Team,
            ..InjectOptions::default()
        },
    );
    assert!(canonical.trim().is_empty() || block.matches("</team_memory>").count() == 1);
});
