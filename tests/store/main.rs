//! The store over an in-memory host: every save path, every failing host
//! call, history, revert, ids, the record format, and a store shared
//! between threads. The options as JavaScript passes them and the views of
//! the outcomes are bindings/wasm/tests/store_views/'s.
// Native only: it shares stores between threads.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use memdoc::store::{
    block_on, Fault, HostFailure, MemoryHost, MemoryHostError, MemoryRef, MemoryStore, OnConflict,
    RewriteRequest, StoreError, StoreOptions, StoreSaveOptions, StoreStatus,
};
use memdoc::{Limits, Scope};
use serde_json::json;

mod carry;
mod compaction;
mod faults;
mod history;
mod records;
mod rewrite;
mod saves;
mod sharing;

#[path = "../common/store.rs"]
mod common;
use common::*;
