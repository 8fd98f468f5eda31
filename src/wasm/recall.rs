//! Recall and expiry (docs/API.md), `recall` and `expire`: text and
//! options in, the core call, its result out (the core's result types are
//! already the JavaScript shapes). `recall`'s result crosses in its own
//! wire format (`crate::wire::recall`).

use crate::js::input::{ExpireOptionsInput, RecallOptionsInput};
use crate::wire::recall::wasm::recall;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{checked, string, view, view_repeating};
use super::errors::to_js;
use super::types::{ExpireOptions, Expiry, Recall, RecallOptions};

/// The part of a memory that best answers a query within a budget.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-scope`, `options/invalid-budget`,
/// `options/invalid-date`, `options/invalid-weight`, `options/invalid`.
#[wasm_bindgen(js_name = recall)]
pub fn recall_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: &JsValue,
    options: Option<RecallOptions>,
) -> Result<Recall, JsValue> {
    let (text, query, options) = arguments(text, query, options)?;
    Ok(recall(&crate::recall(&text, &query, &options)))
}

/// The text of every item of a memory, in the order `recallWithVectors`
/// takes their vectors: what an embedder embeds.
///
/// # Errors
/// `input/not-a-string`.
#[wasm_bindgen(js_name = recallItems)]
pub fn recall_items_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
) -> Result<Vec<String>, JsValue> {
    Ok(crate::recall_items(&string(text, "text")?))
}

/// `recall` by words and meaning, given an embedder's vectors: the query's,
/// and every item's (in the order of `recallItems`) one after another.
/// `hybridRecall` embeds and calls it.
///
/// # Errors
/// As `recall`; `options/invalid-vectors` when the vectors do not fit the
/// memory's items.
#[wasm_bindgen(js_name = recallWithVectors)]
pub fn recall_with_vectors_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: &JsValue,
    options: Option<RecallOptions>,
    embedder: &str,
    query_vector: &[f32],
    item_vectors: &[f32],
) -> Result<Recall, JsValue> {
    let (text, query, options) = arguments(text, query, options)?;
    let vectors = crate::RecallVectors {
        embedder,
        query: query_vector,
        items: item_vectors,
    };
    let found = crate::hybrid_recall(&text, &query, &options, &vectors).map_err(|e| to_js(&e))?;
    Ok(recall(&found))
}

/// The arguments of `recall`, read and checked.
fn arguments(
    text: &JsValue,
    query: &JsValue,
    options: Option<RecallOptions>,
) -> Result<(String, String, crate::RecallOptions), JsValue> {
    let text = string(text, "text")?;
    let query = string(query, "query")?;
    let options = checked(options.map(Into::into), |o: RecallOptionsInput| o.resolve())?;
    Ok((text, query, options))
}

/// `recall` with its result converted through serde-wasm-bindgen only, for
/// the JavaScript tests that compare the two ways (test builds only).
///
/// # Errors
/// As `recall`.
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = __recallThroughSerde, skip_typescript)]
pub fn recall_through_serde_js(
    text: &JsValue,
    query: &JsValue,
    options: Option<RecallOptions>,
) -> Result<Recall, JsValue> {
    let (text, query, options) = arguments(text, query, options)?;
    super::convert::view_through_serde(&crate::recall(&text, &query, &options))
}

/// Remove the entries older than their section's policy allows.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-date`, `options/invalid-policy`,
/// `options/invalid`.
#[wasm_bindgen(js_name = expire)]
pub fn expire_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    options: ExpireOptions,
) -> Result<Expiry, JsValue> {
    let source = string(text, "text")?;
    let options = checked(Some(options.into()), |o: ExpireOptionsInput| o.resolve())?;
    let expiry = crate::expire(&source, &options);
    // As `compact` does (src/wasm/ops.rs): with nothing archived, the
    // content is the canonical form, slices of the memory; otherwise it is
    // converted whole, since past a run of more than a few archived lines
    // the lines after it are not looked for far enough to be found.
    if expiry.archived.is_empty() {
        view_repeating(expiry, |e| &mut e.content, "content", text, &source)
    } else {
        view(&expiry)
    }
}
