//! The store against a model: random sequences of saves (fresh and stale),
//! reverts, no-ops, rejected saves and failing host calls, checked after
//! every step against a plain list of the contents of each revision.
// proptest and insta are native-only dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use memdoc::store::{
    block_on, Fault, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions,
    StoreStatus,
};
use memdoc::Scope;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    /// Add an entry, editing the current revision minus `stale`.
    Save {
        entry: u8,
        stale: u8,
    },
    /// Revert to the current revision minus `back`.
    Revert {
        back: u8,
    },
    Sentinel,
    Reject,
    /// Make the `nth` host call of the next operation fail.
    Fail {
        nth: u8,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (any::<u8>(), 0u8..3).prop_map(|(entry, stale)| Op::Save { entry, stale }),
        1 => (0u8..6).prop_map(|back| Op::Revert { back }),
        1 => Just(Op::Sentinel),
        1 => Just(Op::Reject),
        1 => (1u8..5).prop_map(|nth| Op::Fail { nth }),
    ]
}

const DEPTH: usize = 4;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_store_matches_the_model(ops in proptest::collection::vec(op(), 1..40)) {
        let host = MemoryHost::new();
        let store = MemoryStore::new(&host, StoreOptions {
            history_depth: DEPTH,
            now: Some(Box::new(|| "2025-01-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        }).unwrap();
        let r = MemoryRef::new::<()>(Scope::Team, "model").unwrap();
        // model[n - 1] is the content of revision n.
        let mut model: Vec<String> = Vec::new();
        let mut armed = false;
        for op in ops {
            let current = model.last().cloned().unwrap_or_default();
            let revision = model.len() as u64;
            let opts = |base: u64| StoreSaveOptions { base_revision: base, ..StoreSaveOptions::default() };
            let failed_before = armed;
            armed = false;
            let result = match op {
                Op::Fail { nth } => {
                    host.inject(host.calls() + u64::from(nth), Fault::Fail);
                    armed = true;
                    continue;
                }
                Op::Save { entry, stale } => {
                    let base = revision.saturating_sub(u64::from(stale));
                    let text = if current.is_empty() {
                        format!("## Log\n- 2025-01-01: entry {entry}")
                    } else {
                        format!("{current}\n- 2025-01-01: entry {entry}")
                    };
                    block_on(store.save(&r, &text, &opts(base))).map(|o| (o, Some((base, text))))
                }
                Op::Revert { back } => {
                    let target = revision.saturating_sub(u64::from(back));
                    match block_on(store.revert(&r, target, &opts(revision))) {
                        Err(e) if target == 0 || revision - target >= DEPTH as u64 => {
                            prop_assert!(matches!(e.code(), "store/invalid-revision" | "store/revision-unavailable" | "store/host-failed"), "{}", e.code());
                            host.clear_faults();
                            continue;
                        }
                        other => other.map(|o| (o, None)),
                    }
                }
                Op::Sentinel => block_on(store.save(&r, "NO_UPDATE", &opts(revision))).map(|o| (o, None)),
                Op::Reject => block_on(store.save(&r, "Nothing to add.", &opts(revision))).map(|o| (o, None)),
            };
            match result {
                Err(e) => {
                    prop_assert!(failed_before, "only injected faults may fail: {}", e.code());
                    prop_assert_eq!(e.code(), "store/host-failed");
                }
                Ok((out, save)) => {
                    match out.status {
                        StoreStatus::Saved if out.changed => {
                            prop_assert_eq!(out.revision, revision + 1);
                            model.push(out.content.clone());
                        }
                        StoreStatus::Conflict => {
                            let (base, _) = save.clone().expect("only stale saves conflict");
                            prop_assert_ne!(base, revision);
                            prop_assert_eq!(&out.content, &current);
                        }
                        _ => prop_assert_eq!(out.revision, revision),
                    }
                    if let Some((base, text)) = save {
                        if base == revision {
                            prop_assert_eq!(out.status, StoreStatus::Saved);
                            prop_assert_eq!(&out.content, &text);
                        }
                    }
                }
            }
            // The store agrees with the model after every step (a fault that
            // the operation did not reach is disarmed first).
            host.clear_faults();
            let loaded = block_on(store.load(&r)).unwrap();
            prop_assert_eq!(loaded.revision, model.len() as u64);
            prop_assert_eq!(&loaded.content, &model.last().cloned().unwrap_or_default());
            let history = block_on(store.history(&r)).unwrap();
            prop_assert_eq!(history.len(), model.len().min(DEPTH));
            for (i, content) in model.iter().enumerate() {
                let n = i as u64 + 1;
                let kept = model.len() - i <= DEPTH;
                let got = block_on(store.revision(&r, n)).unwrap();
                prop_assert_eq!(got.as_deref(), kept.then_some(content.as_str()), "revision {}", n);
            }
        }
    }
}
