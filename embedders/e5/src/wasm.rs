//! The WebAssembly exports pkg/embedders/e5.js drives: one model loaded
//! from the model file's bytes, texts in with their role, one flat
//! Float32Array of vectors out.

use crate::{Error, Role, DIMENSIONS, E5};
use wasm_bindgen::prelude::*;

/// A JavaScript Error carrying the error's code.
fn coded(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property on a fresh Error cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &error.code().into());
    js.into()
}

fn role(query: bool) -> Role {
    if query {
        Role::Query
    } else {
        Role::Passage
    }
}

#[wasm_bindgen]
pub struct Model(E5);

#[wasm_bindgen]
impl Model {
    /// The model from `e5-small-q4.bin`'s bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Vec<u8>) -> Result<Model, JsValue> {
        E5::load(bytes).map(Model).map_err(coded)
    }

    /// The texts' vectors, one after the other (`texts.length × 384`
    /// values), as questions (`query: `) or as what is searched
    /// (`passage: `), their windows packed into forward passes together.
    pub fn embed(&self, texts: Vec<String>, query: bool) -> Vec<f32> {
        let mut out = Vec::with_capacity(texts.len() * DIMENSIONS);
        for vector in self.0.embed_batch(&texts, role(query)) {
            out.extend(vector);
        }
        out
    }

    /// The piece ids the model sees for a text (its prefix included, no
    /// `<s>` or `</s>`).
    pub fn tokens(&self, text: &str, query: bool) -> Vec<u32> {
        self.0.tokens(text, role(query))
    }
}
