//! The store over the fault-injecting `MemoryHost`, against a model (the
//! content of every revision): a sequence of saves (current, stale, stale
//! with `onConflict: "merge"`), reverts, no-ops, rejected saves and host
//! calls that fail before or after acting or answer malformed data. After
//! every step: every acknowledged save is readable at its revision, the
//! revisions are dense (1..=n, the last `DEPTH` kept, the audit trail
//! newest first and consecutive), and nothing else changed. A failed
//! operation is either not applied at all or (a lost answer to the head
//! write) applied exactly as asked.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use memdoc::store::{
    block_on, Fault, MemoryHost, MemoryRef, MemoryStore, OnConflict, StoreOptions,
    StoreSaveOptions, StoreStatus,
};
use memdoc::Scope;

const DEPTH: usize = 4;

#[derive(Arbitrary, Debug)]
enum Op {
    /// Add an entry to the revision `stale` before the current one.
    Save {
        entry: u8,
        stale: u8,
        merge: bool,
    },
    /// Revert to the revision `back` before the current one.
    Revert {
        back: u8,
    },
    Sentinel,
    Reject,
    /// Make the `nth` host call of the next operation misbehave.
    Fault {
        nth: u8,
        kind: u8,
    },
    /// Hosts without delete.
    NoDelete,
}

fuzz_target!(|ops: Vec<Op>| {
    let host = MemoryHost::with_delays(7, 2);
    let store = MemoryStore::new(
        &host,
        StoreOptions {
            history_depth: DEPTH,
            now: Some(Box::new(|| "2025-01-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        },
    )
    .expect("options");
    let r = MemoryRef::new::<()>(Scope::Team, "fuzz").expect("id");
    let other = MemoryRef::new::<()>(Scope::Team, "other").expect("id");
    block_on(store.save(
        &other,
        "## Other\n- 2025-01-01: untouched",
        &StoreSaveOptions::default(),
    ))
    .expect("a save without faults");
    let other_keys = host.keys();
    // model[n - 1] is the content of revision n.
    let mut model: Vec<String> = Vec::new();
    let mut armed = false;
    for op in ops.iter().take(48) {
        let revision = model.len() as u64;
        let at = |back: u8| revision.saturating_sub(u64::from(back));
        let content = |n: u64| {
            usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| model.get(i))
                .cloned()
                .unwrap_or_default()
        };
        let opts = |base: u64, merge: bool| StoreSaveOptions {
            base_revision: base,
            on_conflict: if merge {
                OnConflict::Merge
            } else {
                OnConflict::Reject
            },
            ..StoreSaveOptions::default()
        };
        if matches!(op, Op::NoDelete) {
            host.set_delete_supported(false);
            continue;
        }
        let faulty = std::mem::take(&mut armed);
        // What a successful write of this operation stores, when known.
        let (result, asked) = match *op {
            Op::Fault { nth, kind } => {
                let fault =
                    [Fault::Fail, Fault::FailAfterWrite, Fault::Malformed][usize::from(kind) % 3];
                host.inject(host.calls() + 1 + u64::from(nth % 6), fault);
                armed = true;
                continue;
            }
            Op::NoDelete => unreachable!("handled above"),
            Op::Save {
                entry,
                stale,
                merge,
            } => {
                let base = at(stale % 4);
                let edited = content(base);
                let text = if edited.is_empty() {
                    format!("## Log\n- 2025-01-01: entry {entry}")
                } else {
                    format!("{edited}\n- 2025-01-01: entry {entry}")
                };
                let asked = (base == revision).then(|| text.clone());
                (block_on(store.save(&r, &text, &opts(base, merge))), asked)
            }
            Op::Revert { back } => {
                let target = at(back % 7);
                let kept = target > 0 && revision - target < DEPTH as u64;
                let result = block_on(store.revert(&r, target, &opts(revision, false)));
                if !kept {
                    let code = result.as_ref().map(|_| "ok").unwrap_or_else(|e| e.code());
                    assert!(
                        matches!(
                            code,
                            "store/invalid-revision" | "store/revision-unavailable"
                        ) || (faulty && code != "ok"),
                        "revert to {target} of {revision}: {code}"
                    );
                    host.clear_faults();
                    check(&store, &r, &model, &host, &other, &other_keys);
                    continue;
                }
                (result, Some(content(target)))
            }
            Op::Sentinel => (
                block_on(store.save(&r, "NO_UPDATE", &opts(revision, false))),
                None,
            ),
            Op::Reject => (
                block_on(store.save(&r, "Nothing to add.", &opts(revision, false))),
                None,
            ),
        };
        host.clear_faults();
        match result {
            Err(e) => {
                assert!(
                    faulty,
                    "only an injected fault may fail: {} {}",
                    e.code(),
                    e.message()
                );
                assert!(
                    matches!(e.code(), "store/host-failed" | "store/corrupt-record"),
                    "{}",
                    e.code()
                );
                // The answer to the head write may be what was lost: then the
                // save happened, exactly as asked (or as merged).
                let loaded = block_on(store.load(&r)).expect("the store reads after a fault");
                if loaded.revision == revision + 1 {
                    if let Some(asked) = &asked {
                        assert_eq!(
                            &loaded.content, asked,
                            "a lost answer stored something else"
                        );
                    }
                    model.push(loaded.content);
                }
            }
            Ok(out) => {
                match out.status {
                    StoreStatus::Saved if out.changed => {
                        assert_eq!(out.revision, revision + 1, "revisions are dense");
                        if let Some(asked) = &asked {
                            assert_eq!(&out.content, asked);
                        }
                        model.push(out.content.clone());
                    }
                    StoreStatus::Conflict => {
                        assert!(asked.is_none(), "a current save never conflicts");
                        assert_eq!(out.content, content(revision));
                        assert_eq!(out.revision, revision);
                    }
                    _ => assert_eq!(out.revision, revision),
                }
                if let (Op::Save { entry, .. }, StoreStatus::Saved) = (op, out.status) {
                    let line = format!("- 2025-01-01: entry {entry}");
                    assert!(
                        out.content.split('\n').any(|l| l == line),
                        "the saved entry is kept"
                    );
                }
            }
        }
        check(&store, &r, &model, &host, &other, &other_keys);
    }
});

/// The store agrees with the model, and the other memory is untouched.
fn check(
    store: &MemoryStore<&MemoryHost>,
    r: &MemoryRef,
    model: &[String],
    host: &MemoryHost,
    other: &MemoryRef,
    other_keys: &[String],
) {
    let loaded = block_on(store.load(r)).expect("load");
    assert_eq!(loaded.revision, model.len() as u64);
    assert_eq!(&loaded.content, model.last().map_or("", String::as_str));
    let history = block_on(store.history(r)).expect("history");
    assert_eq!(history.len(), model.len().min(DEPTH));
    for (i, entry) in history.iter().enumerate() {
        assert_eq!(
            entry.revision,
            model.len() as u64 - i as u64,
            "dense, newest first"
        );
    }
    for (i, content) in model.iter().enumerate() {
        let n = i as u64 + 1;
        let kept = model.len() - i <= DEPTH;
        let got = block_on(store.revision(r, n)).expect("revision");
        assert_eq!(
            got.as_deref(),
            kept.then_some(content.as_str()),
            "revision {n}"
        );
    }
    let mine = host.keys();
    for key in other_keys {
        assert!(mine.contains(key), "the other memory's key {key} is gone");
    }
    let o = block_on(store.load(other)).expect("other");
    assert_eq!(
        (o.revision, o.content.as_str()),
        (1, "## Other\n- 2025-01-01: untouched")
    );
}
