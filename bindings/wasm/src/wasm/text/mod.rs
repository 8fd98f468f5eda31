//! Texts across the boundary, one file a way: [`encode`] (text in: a
//! JavaScript string into Rust, near the text kept), [`slices`] (text out:
//! what a result repeats of its input as slices of the input string),
//! [`kept`] (a string kept with its conversion from call to call, which
//! both use) and [`parts`] (what a text out is joined from, which a kept
//! string keeps). Each `.js` beside its `.rs` is the JavaScript half.

mod encode;
mod kept;
mod parts;
mod slices;

pub(crate) use kept::{argument_string, option_string, option_text_derived, Kept};
pub(crate) use slices::{joined, repeated};
