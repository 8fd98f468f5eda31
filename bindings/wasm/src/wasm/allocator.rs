//! The module's memory allocator: Talc (crates.io `talc`) over WebAssembly's
//! linear memory, in place of the standard library's dlmalloc: it makes the
//! module smaller and no export slower (figures in BENCHMARKS.md, "Talc
//! instead of dlmalloc").
//!
//! Like the rest of `src/wasm`, it is part of every wasm32 build of the
//! crate: a Rust program that builds memdoc for wasm32 gets the package's
//! boundary and this allocator with it. Native builds keep the system's.

/// The global allocator. Single-threaded (the module has no threads), and
/// it grows the linear memory when it runs out, as dlmalloc did.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
