//! Every case of `tests/conformance/cases.json` (the spec of record, see
//! tests/conformance/README.md), through the Rust API.

use std::path::PathBuf;

use memdoc::{injection_block, normalize_heading, parse, plan_save, render, validate};
use memdoc_wasm::js::input::OptionsInput;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/cases.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("should read {}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).expect("cases.json should be JSON");
    json["cases"]
        .as_array()
        .expect("cases should be a list")
        .clone()
}

fn options(input: &Value) -> OptionsInput {
    serde_json::from_value(input.clone()).expect("case options should deserialize")
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} should be a string in {v}"))
}

/// Run one case; `Err` says how it failed.
fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let op = s(case, "op");
    let eq = |got: &str, want: &str| {
        if got == want {
            Ok(())
        } else {
            Err(format!("got {got:?}, want {want:?}"))
        }
    };
    match op {
        "render" => eq(&render(s(input, "text")), s(expect, "text")),
        "normalizeHeading" => eq(&normalize_heading(s(input, "title")), s(expect, "text")),
        "entry" => {
            let text = format!("## T\n{}", s(input, "line"));
            let doc = parse(&text);
            let first = doc.sections.first().and_then(|sec| sec.lines.first());
            let got = first
                .and_then(|l| l.as_entry())
                .map(|e| serde_json::json!({"date": e.date, "text": e.text}));
            let got = got.unwrap_or(Value::Null);
            if got == expect["entry"] {
                Ok(())
            } else {
                Err(format!("got {got}, want {}", expect["entry"]))
            }
        }
        "isHeading" => {
            let got = parse(s(input, "line"))
                .sections
                .iter()
                .any(|sec| sec.explicit);
            if Some(got) == expect["heading"].as_bool() {
                Ok(())
            } else {
                Err(format!("got heading={got}"))
            }
        }
        "validate" => {
            let opts = options(input)
                .validate_options()
                .map_err(|e| e.to_string())?;
            let report = validate(s(input, "text"), &opts);
            for (code, want) in expect["codes"].as_object().expect("codes") {
                let got = report
                    .diagnostics
                    .iter()
                    .filter(|d| d.code.as_str() == code)
                    .count();
                if Some(got as u64) != want.as_u64() {
                    return Err(format!(
                        "{code}: got {got}, want {want}; {:?}",
                        report.diagnostics
                    ));
                }
            }
            Ok(())
        }
        "planSave" => {
            let opts = options(input).save_options().map_err(|e| e.to_string())?;
            let text = s(input, "text");
            let plan = plan_save(text, &opts);
            eq(plan.status.as_str(), s(expect, "status"))
                .map_err(|e| format!("status {e}; {:?}", plan.diagnostics))?;
            let want = expect["content"]
                .as_str()
                .map_or_else(|| render(text), str::to_owned);
            eq(&plan.content, &want)
        }
        "injectionBlock" => {
            let opts = options(input).inject_options().map_err(|e| e.to_string())?;
            let got = injection_block(s(input, "content"), &opts);
            if let Some(want) = expect["text"].as_str() {
                eq(&got, want)?;
            }
            if let Some(prefix) = expect["startsWith"].as_str() {
                if !got.starts_with(prefix) {
                    return Err(format!("{got:?} should start with {prefix:?}"));
                }
            }
            for needle in expect["contains"].as_array().into_iter().flatten() {
                let needle = needle.as_str().expect("contains holds strings");
                if !got.contains(needle) {
                    return Err(format!("{got:?} should contain {needle:?}"));
                }
            }
            for (needle, n) in expect["count"].as_object().into_iter().flatten() {
                let got_n = got.matches(needle.as_str()).count();
                if Some(got_n as u64) != n.as_u64() {
                    return Err(format!("{needle:?} occurs {got_n} times, want {n}"));
                }
            }
            Ok(())
        }
        other => Err(format!("unknown op {other}")),
    }
}

#[test]
fn every_conformance_case_passes() {
    let cases = cases();
    assert!(
        cases.len() >= 100,
        "should load the whole suite, got {}",
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            run(case)
                .err()
                .map(|e| format!("{} ({}): {e}", case["id"], case["note"]))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
