//! The WebAssembly exports pkg/embedders/minilm.js drives: one model loaded
//! from bytes, texts in, one flat Float32Array of vectors out.

use crate::{Arithmetic, Error, MiniLm, DIMENSIONS};
use wasm_bindgen::prelude::*;

/// A JavaScript Error carrying the error's code.
fn coded(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property on a fresh Error cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &error.code().into());
    js.into()
}

#[wasm_bindgen]
pub struct Model(MiniLm);

#[wasm_bindgen]
impl Model {
    /// The model from a safetensors file (f32 or f16) and tokenizer.json.
    #[wasm_bindgen(constructor)]
    pub fn new(weights: &[u8], tokenizer: &str) -> Result<Model, JsValue> {
        MiniLm::load(weights, tokenizer).map(Model).map_err(coded)
    }

    /// The texts' vectors, one after the other (`texts.length × 384` values),
    /// their tokens packed into forward passes together.
    pub fn embed(&self, texts: Vec<String>) -> Vec<f32> {
        let mut out = Vec::with_capacity(texts.len() * DIMENSIONS);
        for vector in self.0.embed_batch(&texts, Arithmetic::Fast) {
            out.extend(vector);
        }
        out
    }

    /// The token ids the model sees for a text.
    pub fn tokens(&self, text: &str) -> Vec<u32> {
        self.0.tokens(text)
    }
}

/// The weights as the package ships them (`crate::pack_f16`); the build
/// calls it.
#[wasm_bindgen(js_name = packF16)]
pub fn pack_f16(weights: &[u8]) -> Result<Vec<u8>, JsValue> {
    crate::pack_f16(weights).map_err(coded)
}

/// The static embedder (`crate::StaticModel`): its table and tokenizer.json.
#[wasm_bindgen(js_name = StaticModel)]
pub struct Static(crate::StaticModel);

#[wasm_bindgen(js_class = StaticModel)]
impl Static {
    #[wasm_bindgen(constructor)]
    pub fn new(table: &[u8], tokenizer: &str) -> Result<Static, JsValue> {
        crate::StaticModel::load(table, tokenizer)
            .map(Static)
            .map_err(coded)
    }

    /// The texts' vectors, one after the other (`texts.length × 256` values).
    pub fn embed(&self, texts: Vec<String>) -> Vec<f32> {
        texts.iter().flat_map(|text| self.0.embed(text)).collect()
    }
}
