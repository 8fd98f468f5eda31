//! The WebAssembly module of the npm package's bin (`pkg-template/cli.js`,
//! built by scripts/build.mjs into `pkg/cli/`): the command line's engine
//! (`memdoc_cli`) behind internal exports (`__cli…`, untyped, not part of
//! the package's API), each the front end's strings in, the engine's call,
//! its outcome out as `{stdout, stderr, write, exit}`. memdoc's own exports
//! come with the npm module's crate (memdoc-wasm, bindings/wasm/), linked
//! in whole (`version`, `PreparedRecall`: cli.js and cli/embedder.js use
//! them). Natively the crate is empty.
#![forbid(unsafe_code)]
#![warn(clippy::pedantic)]

#[cfg(target_arch = "wasm32")]
mod cli;
#[cfg(target_arch = "wasm32")]
mod cli_agents;

// Linked for its exports alone: nothing here calls it.
#[cfg(target_arch = "wasm32")]
use memdoc_wasm as _;
