//! The wasm32 half of [`recall`](super): `recall`'s result built by
//! `recall.js` from the numbers and the one string of [`Recalled`], or kept
//! there with its selected items read one by one when asked for.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::Recalled;
use crate::base::types::Recall;

#[wasm_bindgen(module = "/src/wire/recall/recall.js")]
extern "C" {
    /// The `Recall` of `numbers`, its strings sliced from `strings`.
    #[wasm_bindgen(js_name = buildRecall)]
    fn build_recall(strings: &str, numbers: &[f64]) -> Recall;

    /// The `ScoredRecall` of `numbers`: a `Recall` whose selected items are
    /// read from them when asked for.
    #[wasm_bindgen(js_name = keepRecall)]
    fn keep_recall(strings: &str, numbers: &[f64]) -> JsValue;
}

/// `recall` as the JavaScript `Recall`, listing its first `listed`
/// omitted items.
pub(crate) fn recall(recall: &memdoc::Recall, listed: usize) -> Recall {
    let recalled = Recalled::of(recall, listed);
    build_recall(&recalled.strings, &recalled.numbers)
}

/// `recall` as the JavaScript `ScoredRecall` (`keepRecall`), listing its
/// first `listed` omitted items.
pub(crate) fn scored_recall(recall: &memdoc::Recall, listed: usize) -> JsValue {
    let recalled = Recalled::of(recall, listed);
    keep_recall(&recalled.strings, &recalled.numbers)
}
