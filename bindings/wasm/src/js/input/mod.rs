//! Options as JavaScript passes them: camelCase, every field optional,
//! `null` allowed, numbers as `f64`. Each `resolve` checks one into the
//! core's options; a value of the right type but out of range is a coded
//! error, never a silent default (a value of the wrong type was already
//! refused as it was read, `options/invalid`). The package reads them by
//! their fields' names (`src/wasm/options.rs`); serde's derived readers are
//! for Rust callers, and the generated TypeScript declarations come from
//! these types.

//!
//! One file per family: [`pure`] (the pure functions' options and limits),
//! [`compact`], [`recall`], [`expire`] (with a store's sweep) and [`store`].

mod compact;
mod expire;
mod pure;
mod recall;
mod store;

pub use compact::*;
pub use expire::*;
pub use pure::*;
pub use recall::*;
pub use store::*;
