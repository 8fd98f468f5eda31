//! The store over an in-memory host: every save path, every failing host
//! call, history, revert, ids, options, the record format and the JS views.
// Native only: it shares stores between threads.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use memdoc::store::{
    block_on, Fault, HostFailure, MemoryHost, MemoryHostError, MemoryRef, MemoryStore, OnConflict,
    RewriteRequest, StoreError, StoreOptions, StoreSaveOptions, StoreStatus,
};
use memdoc::{Limits, Scope};
use memdoc_wasm::js::input::{MemoryRefInput, StoreOptionsInput, StoreSaveOptionsInput};
use memdoc_wasm::js::store::SaveOutcomeView;
use serde_json::json;

mod compaction;
mod faults;
mod history;
mod options;
mod records;
mod rewrite;
mod saves;
mod views;

type Err = StoreError<MemoryHostError>;

const V1: &str = "## Facts\n- 2025-03-15: Lives in Seattle";
const V2: &str = "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-16: Has a dog";
const V3: &str =
    "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-16: Has a dog\n- 2025-03-17: Likes tea";

fn clock() -> memdoc::store::Clock {
    let n = Arc::new(AtomicU64::new(0));
    Box::new(move || {
        let i = n.fetch_add(1, Ordering::SeqCst);
        format!("2025-06-01T00:00:{:02}.000Z", i % 60)
    })
}

fn options() -> StoreOptions {
    StoreOptions {
        now: Some(clock()),
        ..StoreOptions::default()
    }
}

fn store(host: &MemoryHost) -> MemoryStore<&MemoryHost> {
    MemoryStore::new(host, options()).expect("default options are valid")
}

fn alice() -> MemoryRef {
    MemoryRef::new::<()>(Scope::User, "alice").expect("valid id")
}

fn team() -> MemoryRef {
    MemoryRef::new::<()>(Scope::Team, "eng").expect("valid id")
}

fn base(revision: u64) -> StoreSaveOptions {
    StoreSaveOptions {
        base_revision: revision,
        actor: Some("agent".to_owned()),
        ..StoreSaveOptions::default()
    }
}

fn save(
    s: &MemoryStore<&MemoryHost>,
    r: &MemoryRef,
    text: &str,
    rev: u64,
) -> memdoc::store::SaveOutcome {
    block_on(s.save(r, text, &base(rev))).expect("save should not fail")
}
