//! What the wire formats and the exports share (compiled for wasm32 only):
//! [`names`] (property names made once), [`types`] (the TypeScript
//! contract: the typed values the exports take and return) and [`errors`]
//! (the one place a JavaScript `Error` is built). It uses only the inputs
//! and views ([`crate::js`]), and nothing of the formats or the exports.

pub(crate) mod errors;
pub(crate) mod names;
pub mod types;
