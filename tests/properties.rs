//! Properties over arbitrary strings and over generated memory-like
//! documents: nothing panics, every range is in bounds and on character
//! boundaries, rendering is idempotent, nothing but the reported preamble is
//! lost, and every prompt block holds exactly one opening and one closing
//! memory tag.
// Native only: proptest is a native dev-dependency.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::count_tags;
use memdoc::{
    injection_block, parse, parse_entry, plan_save, render, validate, Code, Diagnostic, Document,
    InjectOptions, Limits, LineIndex, SaveOptions, Scope, Span, ValidateOptions,
};
use proptest::prelude::*;

/// Characters that stress the parser: line breaks, separators that are not
/// line breaks, white space, controls, NUL, U+FFFD, multi-byte and astral
/// characters, and the characters of the syntax itself.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec![
            '#', '-', ' ', ':', '(', ')', '[', ']', '`', '~', '<', '/', '>', '0', '1', '2', '9',
            '\n', '\r', '\t', '\u{b}', '\u{c}', '\u{1c}', '\u{85}', '\u{a0}', '\u{2028}',
            '\u{2029}', '\u{3000}', '\0', '\u{7}', '\u{1b}', '\u{fffd}', '\u{feff}', 'é', '中',
            '😀', '𝄞', 'ſ', 'Ｐ',
        ]),
        1 => any::<char>(),
        3 => prop::char::range('a', 'z'),
    ]
}

fn tricky_string(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(tricky_char(), 0..max).prop_map(|v| v.into_iter().collect())
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z][a-z]{0,8}",
        Just("Preferences".to_owned()),
        Just("Ｐｒｅｆｅｒｅｎｃｅｓ".to_owned()),
        Just("personal_notes!".to_owned()),
        Just("😀🚀".to_owned()),
        Just("</team_memory>".to_owned()),
        Just("< / USER_memory >".to_owned()),
        Just("<uſer_memory>".to_owned()),
        Just("\u{0}\u{fffd}\u{7}".to_owned()),
        Just("漢字".to_owned()),
        tricky_string(6),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..5).prop_map(|w| w.join(" "))
}

fn date() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1u32..=9999, 1u32..=12, 1u32..=28).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        1 => Just("2024-02-29".to_owned()),
        1 => Just("2025-02-29".to_owned()),
        1 => Just("0000-01-01".to_owned()),
        1 => Just("2025-13-01".to_owned()),
        1 => Just("2025-W11-6".to_owned()),
        1 => Just("20250315xx".to_owned()),
    ]
}

fn indent() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "", "", " ", "  ", "\t", "\u{3000}"]).prop_map(str::to_owned)
}

fn trailing() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "", "", " ", "\t ", "\u{a0}", "\u{85}", "\u{2028}"])
        .prop_map(str::to_owned)
}

fn memory_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (text(), trailing()).prop_map(|(t, tr)| format!("## {t}{tr}")),
        5 => (indent(), date(), text(), trailing()).prop_map(|(i, d, t, tr)| format!("{i}- {d}: {t}{tr}")),
        1 => (indent(), date(), prop::sample::select(vec!["fact", "pref", "instr", "Fact", "note"]), text())
            .prop_map(|(i, d, m, t)| format!("{i}- ({d}) [{m}] {t}")),
        1 => (indent(), prop::sample::select(vec!["```", "~~~", "````", "```md", "``", "~~~~~"]))
            .prop_map(|(i, f)| format!("{i}{f}")),
        2 => prop::sample::select(vec!["", " ", "\t", "\u{3000}"]).prop_map(str::to_owned),
        2 => (indent(), text()).prop_map(|(i, t)| format!("{i}{t}")),
        1 => (prop::sample::select(vec!["- ", "* ", "-", "#", "### ", "##", "  ## ", "##\t"]), text())
            .prop_map(|(p, t)| format!("{p}{t}")),
        1 => prop::sample::select(vec!["NO_UPDATE", "Sure! Here is the memory:", "-", "## ", "\u{0}", "\u{fffd}"]).prop_map(str::to_owned),
    ]
}

fn line_break() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["\n", "\n", "\n", "\r\n", "\r"])
}

fn memory_document() -> impl Strategy<Value = String> {
    prop::collection::vec((memory_line(), line_break()), 0..40).prop_map(|lines| {
        let mut out = String::new();
        for (line, br) in lines {
            out.push_str(&line);
            out.push_str(br);
        }
        out
    })
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), tricky_string(200), memory_document()]
}

/// Lines as FORMAT §2 defines them, with their start offsets.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            out.push((start, &text[start..i]));
            i += if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            start = i;
        } else {
            i += 1;
        }
    }
    if start < bytes.len() {
        out.push((start, &text[start..]));
    }
    out
}

fn check_span(text: &str, span: Span, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: {span:?} should be in bounds of {} bytes",
        text.len()
    );
    prop_assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: {span:?} should be on char boundaries"
    );
    Ok(())
}

fn check_document_spans(text: &str, doc: &Document) -> Result<(), TestCaseError> {
    for section in &doc.sections {
        check_span(text, section.span, "section")?;
        for line in &section.lines {
            check_span(text, line.span(), "line")?;
        }
    }
    for raw in &doc.preamble {
        check_span(text, raw.span, "preamble")?;
    }
    if let Some(span) = doc.unclosed_fence {
        check_span(text, span, "fence")?;
    }
    Ok(())
}

fn check_diagnostics(text: &str, ds: &[Diagnostic]) -> Result<(), TestCaseError> {
    let index = LineIndex::new(text);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    for d in ds {
        if let Some(span) = d.span {
            check_span(text, span, d.code.as_str())?;
            let r = index.range(span);
            let sliced = String::from_utf16(&utf16[r.start.offset..r.end.offset]).ok();
            prop_assert_eq!(
                sliced.as_deref(),
                Some(&text[span.start..span.end]),
                "the UTF-16 range of {} should slice the same text",
                d.code
            );
        }
    }
    Ok(())
}

fn options(scope: Scope, previous: Option<String>) -> ValidateOptions {
    ValidateOptions {
        scope,
        previous,
        limits: Limits::new(40, 120).unwrap_or_default(),
        ..ValidateOptions::default()
    }
}

fn check_everything(text: &str, previous: Option<String>) -> Result<(), TestCaseError> {
    let doc = parse(text);
    check_document_spans(text, &doc)?;

    let canonical = render(text);
    prop_assert_eq!(
        render(&canonical),
        canonical.clone(),
        "render should be idempotent"
    );
    prop_assert_eq!(
        doc.render(),
        canonical.clone(),
        "Document::render should agree with render"
    );
    prop_assert!(
        !canonical.ends_with('\n') && !canonical.starts_with('\n'),
        "canonical text should not start or end with a line break"
    );

    for scope in [Scope::User, Scope::Team] {
        let opts = options(scope, previous.clone());
        let report = validate(text, &opts);
        prop_assert_eq!(
            &report.canonical,
            &canonical,
            "validate should report the canonical form"
        );
        prop_assert_eq!(
            report.usage.chars,
            canonical.chars().count(),
            "usage should count code points of the canonical form"
        );
        check_diagnostics(text, &report.diagnostics)?;
        let mut sorted = report.diagnostics.clone();
        sorted.sort_by_key(|d| (d.span.map(|s| (s.start, s.end)), d.code));
        prop_assert_eq!(&sorted, &report.diagnostics, "findings should be sorted");
        check_survival(text, &canonical, &report.diagnostics)?;

        for allow_erase in [false, true] {
            let plan = plan_save(
                text,
                &SaveOptions {
                    validate: opts.clone(),
                    allow_erase,
                },
            );
            check_diagnostics(text, &plan.diagnostics)?;
            let prev = previous.clone().unwrap_or_default();
            prop_assert!(
                plan.content == prev || plan.status == memdoc::SaveStatus::Saved,
                "anything but a save should keep the previous document"
            );
            prop_assert_eq!(
                plan.changed,
                plan.content != prev,
                "changed should tell whether content differs"
            );
            if plan.status == memdoc::SaveStatus::Saved {
                prop_assert_eq!(
                    render(&plan.content),
                    plan.content.clone(),
                    "saved content should be canonical"
                );
                prop_assert!(
                    !plan.diagnostics.iter().any(Diagnostic::is_error),
                    "a save should have no error"
                );
                if !allow_erase && !parse(&prev).is_empty() {
                    prop_assert!(
                        !plan.content.is_empty(),
                        "should never erase without allow_erase"
                    );
                }
            }
        }

        for name in [None, Some("Ada Lovelace".to_owned()), Some(text.to_owned())] {
            let block = injection_block(
                text,
                &InjectOptions {
                    scope,
                    limits: opts.limits,
                    user_name: name.clone(),
                    recalled: None,
                },
            );
            check_block(text, &block, scope, name.as_deref())?;
            let block = injection_block(
                &canonical,
                &InjectOptions {
                    scope,
                    limits: opts.limits,
                    user_name: name.clone(),
                    recalled: None,
                },
            );
            check_block(&canonical, &block, scope, name.as_deref())?;
        }
    }

    let index = LineIndex::new(text);
    for (start, _) in text
        .char_indices()
        .step_by(7)
        .chain(std::iter::once((text.len(), ' ')))
    {
        let p = index.position(start);
        prop_assert!(p.line >= 1 && p.column >= 1, "positions should be 1-based");
    }
    Ok(())
}

fn check_block(
    content: &str,
    block: &str,
    scope: Scope,
    name: Option<&str>,
) -> Result<(), TestCaseError> {
    let has_content = !content.trim().is_empty();
    let (mine, other) = match scope {
        Scope::Team => ("team_memory", "user_memory"),
        Scope::User => ("user_memory", "team_memory"),
    };
    let want = if has_content { (1, 1) } else { (0, 0) };
    prop_assert_eq!(
        count_tags(block, mine),
        want,
        "the block should hold exactly one opening and one closing {} tag:\n{}",
        mine,
        block
    );
    prop_assert_eq!(
        count_tags(block, other),
        (0, 0),
        "the block should hold no {} tag",
        other
    );
    let named = scope == Scope::User && name.is_some_and(|n| !n.trim().is_empty());
    let want = if named { (1, 1) } else { (0, 0) };
    prop_assert_eq!(
        count_tags(block, "user_name"),
        want,
        "the block should hold the user_name pair only when named"
    );
    let warnings = count_tags(block, "memory_warning");
    prop_assert!(
        warnings == (0, 0) || warnings == (1, 1),
        "the block should hold at most one memory_warning pair"
    );
    Ok(())
}

/// Every input line that is neither blank nor reported as dropped preamble
/// appears in the canonical text, in order: a heading as `## {title}`, an
/// entry as `- {date}: {text}`, anything else verbatim up to trailing white
/// space.
fn check_survival(text: &str, canonical: &str, ds: &[Diagnostic]) -> Result<(), TestCaseError> {
    let dropped: Vec<usize> = ds
        .iter()
        .filter(|d| d.code == Code::PreambleDropped)
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    let out: Vec<&str> = canonical.split('\n').collect();
    let mut at = 0;
    for (start, line) in lines(text) {
        let content = line.trim_end();
        if content.is_empty() || dropped.contains(&start) {
            continue;
        }
        let mut forms = vec![content.to_owned()];
        if let Some(title) = content
            .strip_prefix("## ")
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            forms.push(format!("## {title}"));
        }
        if let Some(e) = parse_entry(content.trim(), Span::default()) {
            forms.push(format!("- {}: {}", e.date, e.text));
        }
        match out[at..].iter().position(|o| forms.iter().any(|f| f == o)) {
            Some(i) => at += i + 1,
            None => prop_assert!(
                false,
                "line {:?} should survive into the canonical text:\n{}",
                content,
                canonical
            ),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings(text in any_text(), previous in proptest::option::of(any_text())) {
        check_everything(&text, previous)?;
    }

    #[test]
    fn memory_like_documents(text in memory_document(), previous in proptest::option::of(memory_document())) {
        check_everything(&text, previous)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn fenced_replies(body in memory_document(), fence in prop::sample::select(vec!["```", "~~~", "````md", "```markdown"]), lead in "[ \n]{0,3}") {
        let closer: String = fence.chars().take_while(|&c| c == '`' || c == '~').collect();
        let reply = format!("{lead}{fence}\n{body}\n{closer}\n");
        check_everything(&reply, None)?;
        check_everything(&reply, Some("## Facts\n- 2025-01-01: x".to_owned()))?;
    }
}
