//! The store as JavaScript calls it: its options as they arrive (checked
//! into the engine's, with the same coded errors) and the views of its
//! outcomes (camelCase, UTF-16 ranges). The store itself is tested in the
//! engine's tests/store/, whose helpers these share.
// Native only, as the engine's.
#![cfg(not(target_arch = "wasm32"))]

use memdoc::store::{
    block_on, ArchivedEntry, MemoryHost, MemoryRef, MemoryStore, OnConflict, StoreOptions,
    StoreSaveOptions,
};
use memdoc::{merge, Limits, Scope};
use memdoc_wasm::js::input::{MemoryRefInput, StoreOptionsInput, StoreSaveOptionsInput};
use memdoc_wasm::js::merge::MergeResultView;
use memdoc_wasm::js::store::{AuditEntryView, SaveOutcomeView};
use serde_json::json;

mod options;
mod views;

#[path = "../../../../tests/common/store.rs"]
mod common;
use common::*;
