//! The structured operations of docs/ops.md, `merge` and `compact`: text and
//! options in, the core call, its view out.

use crate::js::compact::CompactionView;
use crate::js::input::CompactOptionsInput;
use crate::js::merge::MergeResultView;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{checked, string, view, view_repeating};
use crate::base::types::{CompactOptions, Compaction, MergeResult};

/// Three-way merge of memory documents; every string merges.
///
/// # Errors
/// `input/not-a-string`.
#[wasm_bindgen(js_name = merge)]
pub fn merge_js(
    #[wasm_bindgen(unchecked_param_type = "string")] base: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] ours: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] theirs: &JsValue,
) -> Result<MergeResult, JsValue> {
    let base = string(base, "base")?;
    let source = string(ours, "ours")?;
    let theirs = string(theirs, "theirs")?;
    let merged = memdoc::merge(&base, &source, &theirs);
    // The merged document is most often ours with theirs' changes.
    view_repeating(
        MergeResultView::new(&merged, &base, &source, &theirs),
        |m| &mut m.content,
        "content",
        ours,
        &source,
    )
}

/// Deterministic compaction of a document to a target size.
///
/// # Errors
/// `input/not-a-string`, `options/invalid-scope`, `options/invalid-target`,
/// `options/invalid-date`, `options/invalid`.
#[wasm_bindgen(js_name = compact)]
pub fn compact_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    options: Option<CompactOptions>,
) -> Result<Compaction, JsValue> {
    let source = string(text, "text")?;
    let options = checked(options.map(Into::into), |o: CompactOptionsInput| {
        o.resolve()
    })?;
    let compaction = memdoc::compact(&source, &options);
    let compacted = CompactionView::new(&compaction, &source);
    // A compaction that removed or joined anything is converted whole:
    // about half of the memory is removed, and finding the rest among its
    // lines cost more than it saved (BENCHMARKS.md). One that did neither
    // (the memory fits already) hands back the canonical form, which is
    // the memory's own lines, as `render` does.
    if compacted.removed.is_empty() && compacted.merged.is_empty() {
        view_repeating(compacted, |c| &mut c.content, "content", text, &source)
    } else {
        view(&compacted)
    }
}
