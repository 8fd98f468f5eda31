//! The JavaScript boundary (wasm32 only): converts, delegates to the core, maps errors.
