//! The JavaScript shape of the API, kept out of the public Rust API: the
//! loosely typed options as JavaScript passes them ([`input`]), the errors
//! only the boundary has ([`error`]), and the
//! results as it receives them where they differ from the core types
//! ([`view`], [`merge`], [`compact`], [`store`]: byte spans become UTF-16
//! ranges), and `parse`'s result as the numbers its JavaScript builder
//! reads ([`literal`]), `recall`'s result as the numbers and strings its
//! builder reads ([`recalled`]), every other result as numbers and one
//! string for one JavaScript reader ([`packed`]), and what a result repeats of its input
//! ([`repeats`]). Plain data and conversions, no `wasm_bindgen`: the
//! boundary in `src/wasm/` serializes these, and their unit tests run
//! natively.

pub mod compact;
#[cfg(test)]
mod declarations;
pub mod error;
pub mod input;
pub mod merge;
pub mod name;
pub mod repeats;
pub mod store;
pub mod typescript;
pub mod view;
