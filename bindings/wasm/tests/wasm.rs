//! Each export of the JavaScript boundary, in Node under wasm-bindgen-test
//! (`node scripts/test.mjs wasm-bindgen`): JavaScript values in, and out
//! exactly the JSON of the core's view of the same call; bad arguments out as
//! `Error`s with a `code`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Reflect, JSON};
use memdoc::store::STORE_ERROR_CODES;
use memdoc::{Code, Error};
use memdoc_wasm::js::compact::CompactionView;
use memdoc_wasm::js::error::BOUNDARY_ERROR_CODES;
use memdoc_wasm::js::input::{CompactOptionsInput, LimitsInput, OptionsInput};
use memdoc_wasm::js::merge::MergeResultView;
use memdoc_wasm::js::repeats::pieces;
use memdoc_wasm::js::view::{DocumentView, ReportView, SavePlanView};
use memdoc_wasm::wasm::{info, ops, pure};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "../../../tests/common/positions.rs"]
mod positions;

const TEXT: &str = "intro\n## Notes 😀\n- 2025-01-01: café 記憶\n- not an entry\n\n## Preferences\n- 2025-01-02: dark mode";
const PREVIOUS: &str = "## Notes 😀\n- 2025-01-01: café 記憶";

fn js(text: &str) -> JsValue {
    JsValue::from_str(text)
}

/// A JavaScript object from JSON, as a typed argument.
fn object<T: JsCast>(json: &str) -> Option<T> {
    Some(
        JSON::parse(json)
            .expect("test JSON should parse")
            .unchecked_into(),
    )
}

fn stringify(value: &JsValue) -> String {
    JSON::stringify(value)
        .expect("results should be JSON-compatible")
        .into()
}

fn same_json(got: &JsValue, want: &impl serde::Serialize, what: &str) {
    let want = serde_json::to_string(want).expect("views serialize");
    assert_eq!(stringify(got), want, "{what} should equal the core's view");
}

fn options(json: &str) -> OptionsInput {
    serde_json::from_str(json).expect("test options deserialize")
}

/// What a call threw.
fn thrown<T>(result: Result<T, JsValue>, what: &str) -> JsValue {
    match result {
        Ok(_) => panic!("{what} should throw"),
        Err(error) => error,
    }
}

fn code_of(error: &JsValue) -> String {
    assert!(
        error.is_instance_of::<js_sys::Error>(),
        "should throw an Error"
    );
    Reflect::get(error, &js("code"))
        .ok()
        .and_then(|c| c.as_string())
        .expect("the Error should have a string code")
}

#[wasm_bindgen_test]
fn parse_gives_the_documents_view() {
    let got = pure::parse_js(&js(TEXT)).expect("parse");
    same_json(
        &got,
        &DocumentView::new(&memdoc::parse(TEXT), TEXT),
        "parse",
    );
}

#[wasm_bindgen_test]
fn render_and_normalize_heading_give_the_cores_strings() {
    // The module's start (which the test harness does not run) installs this.
    memdoc_wasm::wasm::install_host_folds();
    assert_eq!(
        pure::render_js(&js(TEXT)).expect("render"),
        memdoc::render(TEXT)
    );
    assert_eq!(
        pure::normalize_heading_js(&js("Ｐｒｅｆｓ!")).expect("normalize"),
        "prefs"
    );
}

/// A small deterministic generator (a linear congruential one) from
/// `seed`: each call draws a number below its argument.
fn draws(seed: u64) -> impl FnMut(usize) -> usize {
    let mut seed = seed;
    move |n| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(seed >> 33).unwrap() % n
    }
}

/// Texts whose lines are canonical or not, in every mix: entries in the
/// legacy format, trailing white space, CRLF, a preamble, sections without
/// the blank line between them, blank lines to drop; ASCII or not.
fn mixed_texts() -> Vec<String> {
    let lines = [
        "## Notes",
        "## Café 記憶",
        "## Trailing   ",
        "- 2025-01-01: an entry long enough that a stretch of lines makes a slice",
        "- (2024-11-02) [fact] a legacy entry, rewritten in the canonical form",
        "- 2025-01-02: 記憶 and 😀, more than ASCII in one line of the memory",
        "- 2025-01-03: trailing white space   ",
        "- 2025-01-04: a line that ends in CRLF\r",
        "Sure, here is the memory:",
        "",
        "   ",
        "a raw line of text, kept verbatim, long enough to count for something",
    ];
    let mut next = draws(7);
    (0..300)
        .map(|_| {
            let count = next(40);
            (0..count)
                .map(|_| lines[next(lines.len())])
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

#[wasm_bindgen_test]
fn canonical_texts_are_the_cores_whatever_they_repeat_of_the_input() {
    memdoc_wasm::wasm::install_host_folds();
    let texts = mixed_texts();
    // Most of them made of slices and converted lines, not converted whole.
    let joined = texts
        .iter()
        .filter(|text| {
            let units = u32::try_from(text.encode_utf16().count()).unwrap();
            pieces(text, units, &memdoc::render(text)).is_some_and(|p| p.len() > 2)
        })
        .count();
    assert!(joined > 150, "{joined} of 300 texts in pieces");
    for text in texts {
        let canonical = memdoc::render(&text);
        assert_eq!(
            pure::render_js(&js(&text)).expect("render"),
            canonical,
            "render of {text:?}"
        );
        let report = pure::validate_js(&js(&text), None).expect("validate");
        let got = Reflect::get(&report, &js("canonical")).expect("canonical");
        assert_eq!(
            got.as_string().as_deref(),
            Some(canonical.as_str()),
            "validate of {text:?}"
        );
        let plan = pure::plan_save_js(&js(&text), None).expect("planSave");
        let content = Reflect::get(&plan, &js("content")).expect("content");
        assert_eq!(
            content.as_string(),
            Some(memdoc::plan_save(&text, &memdoc::SaveOptions::default()).content),
            "planSave of {text:?}"
        );
    }
}

#[wasm_bindgen_test]
fn usage_takes_partial_limits() {
    let got = pure::usage_js(&js(TEXT), object(r#"{"soft": 10}"#)).expect("usage");
    let limits = LimitsInput {
        soft: Some(10.0),
        hard: None,
    }
    .resolve()
    .expect("limits");
    same_json(&got, &memdoc::usage(TEXT, limits), "usage");
    let default = pure::usage_js(&js(TEXT), None).expect("usage");
    same_json(
        &default,
        &memdoc::usage(TEXT, memdoc::Limits::default()),
        "usage without limits",
    );
}

#[wasm_bindgen_test]
fn validate_and_plan_save_take_options() {
    let json = format!(r#"{{"scope": "team", "previous": {PREVIOUS:?}}}"#);
    let got = pure::validate_js(&js(TEXT), object(&json)).expect("validate");
    let opts = options(&json).validate_options().expect("options");
    same_json(
        &got,
        &ReportView::new(memdoc::validate(TEXT, &opts), TEXT),
        "validate",
    );

    let got = pure::plan_save_js(&js(TEXT), object(&json)).expect("planSave");
    let opts = options(&json).save_options().expect("options");
    same_json(
        &got,
        &SavePlanView::new(memdoc::plan_save(TEXT, &opts), TEXT),
        "planSave",
    );
    assert!(stringify(&got).contains(r#""status":"rejected""#));
}

#[wasm_bindgen_test]
fn merge_and_compact_give_the_cores_views() {
    let ours = format!("{PREVIOUS}\n- 2025-01-03: ours");
    let got = ops::merge_js(&js(PREVIOUS), &js(&ours), &js(TEXT)).expect("merge");
    same_json(
        &got,
        &MergeResultView::new(&memdoc::merge(PREVIOUS, &ours, TEXT), PREVIOUS, &ours, TEXT),
        "merge",
    );

    let json = r#"{"scope": "team", "target": 40, "today": "2025-01-01"}"#;
    let got = ops::compact_js(&js(TEXT), object(json)).expect("compact");
    let opts: CompactOptionsInput = serde_json::from_str(json).expect("test options deserialize");
    let opts = opts.resolve().expect("options");
    same_json(
        &got,
        &CompactionView::new(&memdoc::compact(TEXT, &opts), TEXT),
        "compact",
    );

    let not_a_string = JsValue::from_f64(1.0);
    for (what, result) in [
        (
            "base",
            ops::merge_js(&not_a_string, &js(""), &js("")).map(|_| ()),
        ),
        (
            "ours",
            ops::merge_js(&js(""), &not_a_string, &js("")).map(|_| ()),
        ),
        (
            "theirs",
            ops::merge_js(&js(""), &js(""), &not_a_string).map(|_| ()),
        ),
        ("text", ops::compact_js(&not_a_string, None).map(|_| ())),
    ] {
        assert_eq!(
            code_of(&thrown(result, what)),
            "input/not-a-string",
            "{what}"
        );
    }
    for (json, code) in [
        (r#"{"target": 0}"#, "options/invalid-target"),
        (r#"{"today": "2025-02-29"}"#, "options/invalid-date"),
        (r#"{"scope": "everyone"}"#, "options/invalid-scope"),
        (r#"{"target": "100"}"#, "options/invalid"),
    ] {
        let error = thrown(ops::compact_js(&js(TEXT), object(json)), json);
        assert_eq!(code_of(&error), code, "{json}");
    }
}

#[wasm_bindgen_test]
fn injection_block_takes_options() {
    let got = String::from(
        pure::injection_block_js(&js(PREVIOUS), object(r#"{"userName": "Alex Smith"}"#))
            .expect("injectionBlock"),
    );
    let opts = options(r#"{"userName": "Alex Smith"}"#)
        .inject_options()
        .expect("options");
    assert_eq!(got, memdoc::injection_block(PREVIOUS, &opts));
    assert!(got.starts_with("<user_name>Alex</user_name>"));
}

#[wasm_bindgen_test]
fn info_lists_every_code_and_the_version() {
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    same_json(
        &info::diagnostic_codes().expect("codes"),
        &codes,
        "diagnosticCodes",
    );
    same_json(
        &info::error_codes().expect("codes"),
        &[Error::CODES, BOUNDARY_ERROR_CODES, STORE_ERROR_CODES].concat(),
        "errorCodes",
    );
    assert_eq!(info::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn bad_arguments_throw_coded_errors() {
    let err = thrown(pure::parse_js(&JsValue::from_f64(1.0)), "number text");
    assert_eq!(code_of(&err), "input/not-a-string");
    let err = thrown(
        pure::validate_js(&js("## A"), object(r#"{"scope": "all"}"#)),
        "scope",
    );
    assert_eq!(code_of(&err), "options/invalid-scope");
    let err = thrown(
        pure::usage_js(&js("## A"), object(r#"{"hard": -1}"#)),
        "limits",
    );
    assert_eq!(code_of(&err), "options/invalid-limits");
    let err = thrown(
        pure::plan_save_js(&js("## A"), object(r#"{"allowErase": "yes"}"#)),
        "type",
    );
    assert_eq!(code_of(&err), "options/invalid");
}

/// Texts folded together, joined by line feeds, fold exactly as each alone:
/// composition, decomposition and the final sigma at the joins, texts that
/// hold a line feed, ASCII among them.
#[wasm_bindgen_test]
fn texts_folded_together_fold_as_each_alone() {
    memdoc_wasm::wasm::install_host_folds();
    let cases = [
        "ΟΔΟΣ",
        "Σ",
        "ΑΣ",
        "Σα",
        "e",
        "\u{301}x",
        "\u{301}",
        "Ｐｒｅｆｓ",
        "\u{1100}",
        "\u{1161}\u{11a8}",
        "İstanbul",
        "ﬁ ﬂ",
        "ß ǅ",
        "Σ\u{345}",
        "\u{345}Σ",
        "Σ.",
        "'Σ",
        "a\nΣ",
        "\nΣ\n",
        "",
        "plain ascii",
        "ÉTÉ",
        "記憶 😀",
        "Å\u{30a}",
        "\r",
        "Σ\r",
        "\u{fffd}",
        "\u{d55c}\u{1161}",
    ];
    let alone = |text: &str| -> String {
        js_sys::JsString::from(text)
            .normalize("NFKC")
            .to_lower_case()
            .into()
    };
    let mut lists: Vec<Vec<&str>> = cases
        .iter()
        .flat_map(|a| cases.iter().map(move |b| vec![*a, *b]))
        .collect();
    lists.push(cases.to_vec());
    lists.push(cases.iter().rev().copied().collect());
    lists.push(vec![]);
    for list in lists {
        let want: Vec<String> = list.iter().map(|t| alone(t)).collect();
        assert_eq!(memdoc_wasm::wasm::fold_lower_each(&list), want, "{list:?}");
    }
}

#[wasm_bindgen_test]
fn folding_is_the_hosts_for_every_character_of_the_blocks_done_without_it() {
    // The blocks `heading` lower-cases (and folds with NFKC) without the
    // host (Latin-1, general punctuation, CJK and kana, Hangul syllables,
    // emoji), each character alone and between others; neighbours NFKC
    // could combine or reorder (kana and their marks); then texts that also
    // hold a character the host maps (Greek, with a final sigma).
    let host = |text: &str| -> String { js_sys::JsString::from(text).to_lower_case().into() };
    let host_fold = |text: &str| -> String {
        js_sys::JsString::from(text)
            .normalize("NFKC")
            .to_lower_case()
            .into()
    };
    let blocks = [
        0x80..=0xFF,
        0x2000..=0x206F,
        0x3000..=0x9FFF,
        0xAC00..=0xD7A3,
        0x1F000..=0x1FAFF,
    ];
    for c in blocks.into_iter().flatten().filter_map(char::from_u32) {
        for text in [c.to_string(), format!("Ab{c}Ü 記")] {
            let at = format!("U+{:04X}", u32::from(c));
            assert_eq!(memdoc_wasm::wasm::lowercase(&text), host(&text), "{at}");
            assert_eq!(
                memdoc_wasm::wasm::fold_lower_each(&[&text]),
                [host_fold(&text)],
                "{at}"
            );
        }
    }
    let kana: Vec<char> = (0x3000..=0x30FF).filter_map(char::from_u32).collect();
    for a in &kana {
        let texts: Vec<String> = kana.iter().map(|b| format!("{a}{b}")).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let want: Vec<String> = texts.iter().map(|t| host_fold(t)).collect();
        assert_eq!(
            memdoc_wasm::wasm::fold_lower_each(&texts),
            want,
            "after {a}"
        );
    }
    for text in ["ÉTÉ ΣΑΣ", "Café ΟΔΟΣ 😀", "İstanbul Ü", "記憶 ÀÉÎ"] {
        assert_eq!(memdoc_wasm::wasm::lowercase(text), host(text), "{text}");
        assert_eq!(
            memdoc_wasm::wasm::fold_lower_each(&[text]),
            [host_fold(text)],
            "{text}"
        );
    }
}

/// Texts whose characters of one to four bytes, line breaks (LF, CR, CRLF)
/// and U+FFFD fall at every offset of a block of sixteen bytes, and across
/// blocks: what the module's scans read a block at a time
/// (src/fast/sixteen.rs).
fn scanned_texts() -> Vec<String> {
    let pieces = [
        "a", "Z", "é", "ß", "—", "記", "😀", "\u{fffd}", "\n", "\r", "\r\n", " ",
    ];
    let mut next = draws(11);
    let mut texts = Vec::new();
    for piece in pieces {
        for before in 0..40 {
            texts.push(format!(
                "{}{piece}{}",
                "x".repeat(before),
                "y".repeat(40 - before)
            ));
        }
    }
    for _ in 0..400 {
        let count = next(80);
        texts.push((0..count).map(|_| pieces[next(pieces.len())]).collect());
    }
    texts
}

#[wasm_bindgen_test]
fn scans_a_block_at_a_time_count_what_the_standard_library_counts() {
    for text in scanned_texts() {
        // `usage` counts the code points of the canonical form.
        assert_eq!(
            memdoc::usage(&text, memdoc::Limits::default()).chars,
            memdoc::render(&text).chars().count(),
            "code points of {text:?}"
        );
        // Every position and the end, against lines split and UTF-16 units
        // counted a character at a time (the index splits lines as the
        // parser does).
        let index = memdoc::LineIndex::new(&text);
        for (at, want) in positions::positions_one_by_one(&text) {
            assert_eq!(index.position(at), want, "byte {at} of {text:?}");
        }
    }
}
