//! The JavaScript shape of the API, kept out of the public Rust API: the
//! loosely typed options as JavaScript passes them ([`input`], one file per
//! family), the errors only the boundary has ([`error`]), the results as it
//! receives them where they differ from the core types ([`view`],
//! [`merge`], [`compact`], [`store`]: byte spans become UTF-16 ranges), and
//! what a result repeats of its input ([`repeats`]). Plain data and
//! conversions, no `wasm_bindgen`: how they cross is `crate::wire`, the
//! exports that send them are `crate::wasm`, and their unit tests run
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
