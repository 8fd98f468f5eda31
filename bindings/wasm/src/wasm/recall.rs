//! Recall and expiry (docs/API.md): `PreparedMemory` (of which `core.js`
//! makes `PreparedRecall`, `recall`, `recallItems` and `recallWithVectors`)
//! and `expire`:
//! text and options in, the core call, its result out (the core's result
//! types are already the JavaScript shapes). A recall's result crosses in
//! its own wire format (`crate::wire::recall`).

use crate::js::input::{ExpireOptionsInput, RecallOptionsInput};
use crate::wire::recall::wasm::{recall, scored_recall};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{checked, string, view, view_repeating};
use crate::base::errors::to_js;
use crate::base::types::{ExpireOptions, Expiry, RecallOptions};

/// `PreparedMemory` of API.md: a memory made ready for recall, its text
/// parsed and its words looked at once, then recalled from query after
/// query. Internal: `core.js` wraps it in the public class.
#[wasm_bindgen(js_name = PreparedMemory, skip_typescript)]
pub struct JsPreparedMemory(memdoc::PreparedMemory, Option<memdoc::ItemVectors>);

#[wasm_bindgen(js_class = PreparedMemory)]
impl JsPreparedMemory {
    /// `text` made ready for recall.
    ///
    /// # Errors
    /// `input/not-a-string`.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &JsValue) -> Result<JsPreparedMemory, JsValue> {
        Ok(Self(
            memdoc::PreparedMemory::new(&string(text, "text")?),
            None,
        ))
    }

    /// Hold `vectors`, every item's of `dimensions` numbers, for the recalls
    /// given an embedder and no item vectors (instead of those held before).
    ///
    /// # Errors
    /// `options/invalid-vectors` when they do not fit the items.
    pub fn hold(&mut self, vectors: Vec<f32>, dimensions: u32) -> Result<(), JsValue> {
        self.1 = Some(
            memdoc::ItemVectors::new(&self.0, vectors, dimensions as usize)
                .map_err(|e| to_js(&e))?,
        );
        Ok(())
    }

    /// Every item's text, in the order `recall` takes their vectors.
    #[wasm_bindgen(getter)]
    pub fn items(&self) -> Vec<String> {
        self.0.items().map(str::to_owned).collect()
    }

    /// The recall of `query`: by words alone, or by words and meaning
    /// given an embedder's id and vectors (the query's, and every item's in
    /// the order of `items` one after another, or without them those held:
    /// `hold`), listing the first `listed` omitted items (all without it);
    /// `once` for a memory recalled from once. `core.js` makes it `recall`,
    /// `recallWithVectors` and `recallWithHeldVectors`; `scored`, its
    /// `ScoredRecall` (selected items read when asked for), `recallScored`,
    /// `recallScoredWithVectors` and `recallScoredWithHeldVectors`.
    ///
    /// # Errors
    /// As `recall`, and `options/invalid-vectors` when the vectors do not
    /// fit the items.
    // wasm-bindgen takes optional arguments by value only, and positionally:
    // core.js names them.
    #[allow(clippy::needless_pass_by_value, clippy::too_many_arguments)]
    pub fn recall(
        &self,
        query: &JsValue,
        options: Option<RecallOptions>,
        embedder: Option<String>,
        query_vector: Option<Vec<f32>>,
        item_vectors: Option<Vec<f32>>,
        listed: Option<u32>,
        scored: Option<bool>,
        once: Option<bool>,
    ) -> Result<JsValue, JsValue> {
        let query = string(query, "query")?;
        let options = checked(options.map(Into::into), |o: RecallOptionsInput| o.resolve())?;
        let vectors = vectors(
            embedder.as_deref(),
            query_vector.as_deref(),
            item_vectors.as_deref(),
        );
        let found = match (&self.1, &vectors, item_vectors.is_none()) {
            (Some(held), Some(v), true) => self
                .0
                .recall_with_item_vectors(&query, &options, v.embedder, v.query, held),
            _ if once == Some(true) => self.0.recall_once(&query, &options, vectors.as_ref()),
            _ => self.0.recall(&query, &options, vectors.as_ref()),
        }
        .map_err(|e| to_js(&e))?;
        let listed = listed.map_or(usize::MAX, |n| n as usize);
        Ok(if scored == Some(true) {
            scored_recall(&found, listed)
        } else {
            recall(&found, listed).into()
        })
    }
}

/// An embedder's vectors as the engine takes them, given its id.
fn vectors<'a>(
    embedder: Option<&'a str>,
    query: Option<&'a [f32]>,
    items: Option<&'a [f32]>,
) -> Option<memdoc::RecallVectors<'a>> {
    embedder.map(|embedder| memdoc::RecallVectors {
        embedder,
        query: query.unwrap_or_default(),
        items: items.unwrap_or_default(),
    })
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
) -> Result<crate::base::types::Recall, JsValue> {
    let text = string(text, "text")?;
    let query = string(query, "query")?;
    let options = checked(options.map(Into::into), |o: RecallOptionsInput| o.resolve())?;
    super::convert::view_through_serde(&memdoc::recall(&text, &query, &options))
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
    let expiry = memdoc::expire(&source, &options);
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
