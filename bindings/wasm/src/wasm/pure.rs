//! The pure functions of API.md, each: text and options in, the core call,
//! its view out.

use crate::js::input::{LimitsInput, OptionsInput};
use crate::js::view::{ReportView, SavePlanView};
use js_sys::JsString;
use memdoc::plan_save_with;
use memdoc::{validate_with, PreviousHeadings};
use std::rc::Rc;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert::{checked, string, view, view_repeating};
use super::panic::test_trigger;
use super::text::{joined, option_text_derived, repeated};
use crate::base::types::{
    InjectOptions, LimitsArg, MemoryDocument, Report, SaveOptions, SavePlan, Usage,
    ValidateOptions, WritingRulesOptions,
};
use crate::wire::document::wasm::document;

/// Parse a memory document; every string parses.
///
/// # Errors
/// `input/not-a-string`.
#[wasm_bindgen(js_name = parse)]
pub fn parse_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
) -> Result<MemoryDocument, JsValue> {
    let source = string(text, "text")?;
    test_trigger(&source);
    document(&memdoc::parse(&source), &source, text.unchecked_ref())
}

/// `parse` with its result converted through serde-wasm-bindgen only, for
/// the JavaScript tests that compare the two ways (test builds only).
///
/// # Errors
/// `input/not-a-string`.
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = __parseThroughSerde, skip_typescript)]
pub fn parse_through_serde_js(text: &JsValue) -> Result<MemoryDocument, JsValue> {
    let text = string(text, "text")?;
    super::convert::view_through_serde(&crate::js::view::DocumentView::new(
        &memdoc::parse(&text),
        &text,
    ))
}

/// The views of `base`, `ours` and `theirs` (the document, a report, a save
/// plan, a merge, a compaction, a recall, an expiry, a usage), each as a
/// pair: as the exports make it, and through serde-wasm-bindgen, for the
/// JavaScript tests that compare the two (test builds only).
///
/// # Errors
/// `input/not-a-string`.
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = __viewsBothWays, skip_typescript)]
pub fn views_both_ways_js(
    base: &JsValue,
    ours: &JsValue,
    theirs: &JsValue,
) -> Result<js_sys::Array, JsValue> {
    use super::convert::view_through_serde;
    use crate::js::{compact::CompactionView, merge::MergeResultView, view::DocumentView};

    fn both(out: &js_sys::Array, value: &impl serde::Serialize) -> Result<(), JsValue> {
        let pair = js_sys::Array::of2(
            &view::<JsValue>(value)?,
            &view_through_serde::<JsValue>(value)?,
        );
        out.push(&pair);
        Ok(())
    }
    let (base, ours, theirs) = (
        string(base, "base")?,
        string(ours, "ours")?,
        string(theirs, "theirs")?,
    );
    let out = js_sys::Array::new();
    both(&out, &DocumentView::new(&memdoc::parse(&ours), &ours))?;
    let options = memdoc::ValidateOptions {
        scope: memdoc::Scope::Team,
        previous: Some(base.clone()),
        ..memdoc::ValidateOptions::default()
    };
    both(
        &out,
        &ReportView::new(memdoc::validate(&ours, &options), &ours),
    )?;
    let save = memdoc::SaveOptions {
        validate: options,
        allow_erase: false,
    };
    both(
        &out,
        &SavePlanView::new(memdoc::plan_save(&ours, &save), &ours),
    )?;
    let merged = memdoc::merge(&base, &ours, &theirs);
    both(&out, &MergeResultView::new(&merged, &base, &ours, &theirs))?;
    let target = ours.chars().count() / 3;
    let compaction = memdoc::compact(
        &ours,
        &memdoc::CompactOptions {
            target,
            ..memdoc::CompactOptions::default()
        },
    );
    both(&out, &CompactionView::new(&compaction, &ours))?;
    both(
        &out,
        &memdoc::recall(&ours, &theirs, &memdoc::RecallOptions::default()),
    )?;
    let expire = memdoc::ExpireOptions {
        today: "2025-06-01".to_owned(),
        policies: vec![memdoc::ExpiryPolicy {
            section: "Work".to_owned(),
            max_age_days: 30,
        }],
    };
    both(&out, &memdoc::expire(&ours, &expire))?;
    both(&out, &memdoc::usage(&ours, memdoc::Limits::default()))?;
    Ok(out)
}

/// The canonical form of a document.
///
/// # Errors
/// `input/not-a-string`.
#[wasm_bindgen(js_name = render)]
pub fn render_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
) -> Result<JsString, JsValue> {
    let source = string(text, "text")?;
    let canonical = memdoc::render(&source);
    Ok(repeated(text.unchecked_ref(), &source, &canonical))
}

/// The key two headings are compared by.
///
/// # Errors
/// `input/not-a-string`.
#[wasm_bindgen(js_name = normalizeHeading)]
pub fn normalize_heading_js(
    #[wasm_bindgen(unchecked_param_type = "string")] title: &JsValue,
) -> Result<String, JsValue> {
    Ok(memdoc::normalize_heading(&string(title, "title")?))
}

/// The size of the canonical form against the limits.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-limits`, `options/invalid`.
#[wasm_bindgen(js_name = usage)]
pub fn usage_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    limits: Option<LimitsArg>,
) -> Result<Usage, JsValue> {
    let text = string(text, "text")?;
    let limits = checked(limits.map(Into::into), LimitsInput::resolve)?;
    view(&memdoc::usage(&text, limits))
}

/// Validate a document.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-scope`, `options/invalid-limits`,
/// `options/invalid`.
#[wasm_bindgen(js_name = validate)]
pub fn validate_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    options: Option<ValidateOptions>,
) -> Result<Report, JsValue> {
    let source = string(text, "text")?;
    let options = checked(options.map(Into::into), |o: OptionsInput| {
        o.validate_options()
    })?;
    let headings = previous_headings(options.previous.as_deref());
    view_repeating(
        ReportView::new(
            validate_with(&source, &options, headings.as_deref()),
            &source,
        ),
        |r| &mut r.canonical,
        "canonical",
        text,
        &source,
    )
}

/// The headings of the stored memory a text is checked against, kept with
/// it when it is the long text last read from options: the editor checks
/// every edit against the same revision, a caller plans save after save
/// over the same stored memory, and finding them is a pass over all of it
/// (BENCHMARKS.md).
fn previous_headings(previous: Option<&str>) -> Option<Rc<PreviousHeadings>> {
    let previous = previous?;
    option_text_derived(previous, || PreviousHeadings::of(previous))
}

/// Plan a save.
///
/// # Errors
/// As [`validate_js`].
#[wasm_bindgen(js_name = planSave)]
pub fn plan_save_js(
    #[wasm_bindgen(unchecked_param_type = "string")] updated: &JsValue,
    options: Option<SaveOptions>,
) -> Result<SavePlan, JsValue> {
    let source = string(updated, "updated")?;
    let options = checked(options.map(Into::into), |o: OptionsInput| o.save_options())?;
    let headings = previous_headings(options.validate.previous.as_deref());
    view_repeating(
        SavePlanView::new(
            plan_save_with(&source, &options, headings.as_deref()),
            &source,
        ),
        |p| &mut p.content,
        "content",
        updated,
        &source,
    )
}

/// The prompt block for a stored memory.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-scope`, `options/invalid-limits`,
/// `options/invalid`.
#[wasm_bindgen(js_name = injectionBlock)]
pub fn injection_block_js(
    #[wasm_bindgen(unchecked_param_type = "string")] content: &JsValue,
    options: Option<InjectOptions>,
) -> Result<JsString, JsValue> {
    let source = string(content, "content")?;
    let options = checked(options.map(Into::into), |o: OptionsInput| {
        o.inject_options()
    })?;
    let pieces = memdoc::injection_pieces(&source, &options);
    Ok(joined(content.unchecked_ref(), &source, &pieces))
}

/// The rules for a model that writes a whole memory (the rewrite prompt's
/// format and team rules, and the limits).
///
/// # Errors
/// `options/invalid-scope`, `options/invalid-limits`, `options/invalid`.
#[wasm_bindgen(js_name = writingRules)]
pub fn writing_rules_js(options: Option<WritingRulesOptions>) -> Result<String, JsValue> {
    let (scope, limits) = checked(options.map(Into::into), |o: OptionsInput| {
        Ok((o.scope()?, o.limits()?))
    })?;
    Ok(memdoc::store::writing_rules(scope, limits))
}
