//! What the store's tests share (tests/store/, and the views' in
//! bindings/wasm/tests/store_views/): texts, a clock, a store over an
//! in-memory host, the two memories and a save.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use memdoc::store::{
    block_on, MemoryHost, MemoryHostError, MemoryRef, MemoryStore, StoreError, StoreOptions,
    StoreSaveOptions,
};
use memdoc::Scope;

pub type Err = StoreError<MemoryHostError>;

pub const V1: &str = "## Facts\n- 2025-03-15: Lives in Seattle";
pub const V2: &str = "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-16: Has a dog";
pub const V3: &str =
    "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-16: Has a dog\n- 2025-03-17: Likes tea";

pub fn clock() -> memdoc::store::Clock {
    let n = Arc::new(AtomicU64::new(0));
    Box::new(move || {
        let i = n.fetch_add(1, Ordering::SeqCst);
        format!("2025-06-01T00:00:{:02}.000Z", i % 60)
    })
}

pub fn options() -> StoreOptions {
    StoreOptions {
        now: Some(clock()),
        ..StoreOptions::default()
    }
}

pub fn store(host: &MemoryHost) -> MemoryStore<&MemoryHost> {
    MemoryStore::new(host, options()).expect("default options are valid")
}

pub fn alice() -> MemoryRef {
    MemoryRef::new::<()>(Scope::User, "alice").expect("valid id")
}

pub fn team() -> MemoryRef {
    MemoryRef::new::<()>(Scope::Team, "eng").expect("valid id")
}

pub fn base(revision: u64) -> StoreSaveOptions {
    StoreSaveOptions {
        base_revision: revision,
        actor: Some("agent".to_owned()),
        ..StoreSaveOptions::default()
    }
}

pub fn save(
    s: &MemoryStore<&MemoryHost>,
    r: &MemoryRef,
    text: &str,
    rev: u64,
) -> memdoc::store::SaveOutcome {
    block_on(s.save(r, text, &base(rev))).expect("save should not fail")
}
