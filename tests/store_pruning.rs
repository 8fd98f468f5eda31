//! Pruning: once a head write has succeeded, the snapshots that fell out of
//! the kept history are deleted, and nothing else ever is. Checked against
//! the key count of the host, failing deletes, hosts without delete, and
//! racing writers (with an invariant checked between every two steps of the
//! race: the current head never names a missing snapshot).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use memdoc::store::{
    block_on, Fault, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions,
    StoreStatus,
};
use memdoc::Scope;

const DEPTH: usize = 4;

fn alice() -> MemoryRef {
    MemoryRef::new::<()>(Scope::User, "alice").expect("valid id")
}

fn options(depth: usize) -> StoreOptions {
    StoreOptions {
        history_depth: depth,
        now: Some(Box::new(|| "2025-06-01T00:00:00.000Z".to_owned())),
        ..StoreOptions::default()
    }
}

fn base(revision: u64) -> StoreSaveOptions {
    StoreSaveOptions {
        base_revision: revision,
        ..StoreSaveOptions::default()
    }
}

/// The document of revision `n`: one more entry than revision `n - 1`.
fn doc(n: u64) -> String {
    let mut text = String::from("## Log");
    for i in 1..=n {
        text.push_str(&format!("\n- 2025-01-01: entry {i}"));
    }
    text
}

/// The snapshot keys the current head names, newest first.
fn named(host: &MemoryHost, r: &MemoryRef) -> Vec<String> {
    let key = format!("memdoc/{}/{}", r.scope().as_str(), r.id());
    let Some(head) = host.peek(&key) else {
        return Vec::new();
    };
    let head: serde_json::Value = serde_json::from_str(&head.value).expect("head is JSON");
    head["snapshots"]
        .as_array()
        .expect("snapshots")
        .iter()
        .map(|s| s["key"].as_str().expect("key").to_owned())
        .collect()
}

#[test]
fn after_many_saves_the_host_holds_the_head_and_the_kept_snapshots_only() {
    let host = MemoryHost::new();
    let store = MemoryStore::new(&host, options(DEPTH)).unwrap();
    let saves = 3 * DEPTH as u64 + 2;
    for n in 1..=saves {
        let out = block_on(store.save(&alice(), &doc(n), &base(n - 1))).unwrap();
        assert_eq!((out.status, out.revision), (StoreStatus::Saved, n));
        assert_eq!(out.notice, None, "save {n}: nothing to report");
        let kept = usize::try_from(n).unwrap().min(DEPTH);
        assert_eq!(host.keys().len(), 1 + kept, "save {n}: head + {kept}");
    }
    let mut keys = host.keys();
    keys.retain(|k| k != "memdoc/user/alice");
    let mut names = named(&host, &alice());
    names.sort();
    assert_eq!(keys, names, "exactly the snapshots the head names remain");
    assert_eq!(
        host.deletes(),
        saves - DEPTH as u64,
        "one delete per save past the window"
    );

    let oldest = saves - DEPTH as u64 + 1;
    for n in oldest..=saves {
        assert_eq!(
            block_on(store.revision(&alice(), n)).unwrap(),
            Some(doc(n)),
            "revision {n} is kept"
        );
    }
    for n in 1..oldest {
        assert_eq!(
            block_on(store.revision(&alice(), n)).unwrap(),
            None,
            "revision {n} was pruned"
        );
        let err = block_on(store.revert(&alice(), n, &base(saves))).unwrap_err();
        assert_eq!(err.code(), "store/revision-unavailable", "revert {n}");
    }
    // A kept revision can still be reverted to, and that prunes once more.
    let out = block_on(store.revert(&alice(), oldest, &base(saves))).unwrap();
    assert_eq!((out.status, out.content), (StoreStatus::Saved, doc(oldest)));
    assert_eq!(host.keys().len(), 1 + DEPTH);
}

#[test]
fn saves_that_write_nothing_delete_nothing() {
    let host = MemoryHost::new();
    let store = MemoryStore::new(&host, options(2)).unwrap();
    for n in 1..=3 {
        block_on(store.save(&alice(), &doc(n), &base(n - 1))).unwrap();
    }
    let keys = host.keys();
    let deletes = host.deletes();
    let same = block_on(store.save(&alice(), &doc(3), &base(3))).unwrap();
    assert!(!same.changed);
    let stale = block_on(store.save(&alice(), &doc(4), &base(1))).unwrap();
    assert_eq!(stale.status, StoreStatus::Conflict);
    let rejected = block_on(store.save(&alice(), "", &base(3))).unwrap();
    assert_ne!(rejected.status, StoreStatus::Saved);
    assert_eq!((host.keys(), host.deletes()), (keys, deletes));
}

#[test]
fn a_failing_delete_still_saves_and_says_so() {
    for fault in [Fault::Fail, Fault::FailAfterWrite, Fault::Malformed] {
        let host = MemoryHost::new();
        let store = MemoryStore::new(&host, options(2)).unwrap();
        block_on(store.save(&alice(), &doc(1), &base(0))).unwrap();
        block_on(store.save(&alice(), &doc(2), &base(1))).unwrap();
        // Save 3: get head, put snapshot, put head, delete revision 1.
        let delete_call = host.calls() + 4;
        host.inject(delete_call, fault);
        let out = block_on(store.save(&alice(), &doc(3), &base(2))).unwrap();
        assert_eq!((out.status, out.revision), (StoreStatus::Saved, 3));
        assert_eq!(
            out.notice.as_deref(),
            Some("1 old snapshot could not be removed."),
            "{fault:?}"
        );
        assert_eq!(host.deletes(), 1, "{fault:?}: the delete was tried");
        assert_eq!(block_on(store.load(&alice())).unwrap().content, doc(3));
        assert_eq!(block_on(store.revision(&alice(), 2)).unwrap(), Some(doc(2)));
        // The next save prunes only what its own head dropped; the leftover
        // of the failed delete is an unread key, never read again.
        let out = block_on(store.save(&alice(), &doc(4), &base(3))).unwrap();
        assert_eq!(out.notice, None);
        let expected_keys = if fault == Fault::FailAfterWrite { 3 } else { 4 };
        assert_eq!(host.keys().len(), expected_keys, "{fault:?}");
    }
}

#[test]
fn two_failing_deletes_are_counted_in_the_notice() {
    let host = MemoryHost::new();
    let store = MemoryStore::new(&host, options(3)).unwrap();
    for n in 1..=3 {
        block_on(store.save(&alice(), &doc(n), &base(n - 1))).unwrap();
    }
    // A store with a shorter window over the same memory drops two at once.
    let short = MemoryStore::new(&host, options(1)).unwrap();
    let first_delete = host.calls() + 4;
    host.inject(first_delete, Fault::Fail);
    host.inject(first_delete + 1, Fault::Fail);
    let out = block_on(short.save(&alice(), &doc(4), &base(3))).unwrap();
    assert_eq!(out.status, StoreStatus::Saved);
    assert_eq!(
        out.notice.as_deref(),
        Some("2 old snapshots could not be removed.")
    );
}

#[test]
fn a_host_without_delete_keeps_every_snapshot_and_works_as_before() {
    let host = MemoryHost::new();
    host.set_delete_supported(false);
    let store = MemoryStore::new(&host, options(2)).unwrap();
    for n in 1..=6 {
        let out = block_on(store.save(&alice(), &doc(n), &base(n - 1))).unwrap();
        assert_eq!((out.status, out.notice), (StoreStatus::Saved, None));
    }
    assert_eq!(host.keys().len(), 1 + 6, "nothing was removed");
    assert_eq!(block_on(store.revision(&alice(), 5)).unwrap(), Some(doc(5)));
    assert_eq!(block_on(store.revision(&alice(), 4)).unwrap(), None);
}

#[test]
fn a_failed_head_write_deletes_nothing() {
    for fault in [Fault::Fail, Fault::FailAfterWrite, Fault::Malformed] {
        let host = MemoryHost::new();
        let store = MemoryStore::new(&host, options(1)).unwrap();
        block_on(store.save(&alice(), &doc(1), &base(0))).unwrap();
        // Save 2: get head, put snapshot, put head (fails).
        host.inject(host.calls() + 3, fault);
        let err = block_on(store.save(&alice(), &doc(2), &base(1))).unwrap_err();
        assert_eq!(err.code(), "store/host-failed");
        assert_eq!(host.deletes(), 0, "{fault:?}: no delete after a failure");
        for key in named(&host, &alice()) {
            assert!(host.peek(&key).is_some(), "{fault:?}: {key} is named");
        }
    }
}

#[test]
fn a_reader_that_loses_the_race_with_a_prune_gets_none_not_corrupt() {
    let host = MemoryHost::new();
    let store = MemoryStore::new(&host, options(2)).unwrap();
    block_on(store.save(&alice(), &doc(1), &base(0))).unwrap();
    block_on(store.save(&alice(), &doc(2), &base(1))).unwrap();
    // The reader has read the head (naming revision 1); before it reads the
    // snapshot, another store saves revision 3 and prunes revision 1.
    let reader_snapshot_get = host.calls() + 2;
    host.before_call(reader_snapshot_get, |h| {
        let other = MemoryStore::new(h, options(2)).unwrap();
        let out = block_on(other.save(&alice(), &doc(3), &base(2))).unwrap();
        assert_eq!(out.status, StoreStatus::Saved);
    });
    assert_eq!(block_on(store.revision(&alice(), 1)).unwrap(), None);
    // A snapshot the current head still names but that is missing is
    // corrupt, as before.
    let kept = named(&host, &alice());
    block_on(host_delete(&host, &kept[1]));
    let err = block_on(store.revision(&alice(), 2)).unwrap_err();
    assert_eq!(err.code(), "store/corrupt-record");
}

async fn host_delete(host: &MemoryHost, key: &str) {
    use memdoc::store::Host;
    host.delete(key).await.expect("delete works");
}

struct Noop;
impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

type Task<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// One writer adding `entries` lines, re-reading and retrying on conflict
/// and on failed calls. Returns the acknowledged lines.
async fn writer(store: &MemoryStore<&MemoryHost>, w: usize, entries: usize) -> Vec<String> {
    let mut acknowledged = Vec::new();
    for i in 0..entries {
        let line = format!("- 2025-02-01: writer {w} entry {i}");
        loop {
            let Ok(current) = store.load(&alice()).await else {
                continue;
            };
            let text = if current.content.is_empty() {
                format!("## Log\n{line}")
            } else {
                format!("{}\n{line}", current.content)
            };
            match store.save(&alice(), &text, &base(current.revision)).await {
                Ok(out) if out.status == StoreStatus::Saved => {
                    acknowledged.push(line);
                    break;
                }
                Ok(out) => assert_eq!(out.status, StoreStatus::Conflict),
                Err(e) => assert_eq!(e.code(), "store/host-failed"),
            }
        }
    }
    acknowledged
}

/// Race `writers` writers over a host that prunes to `depth`, checking
/// between every two polls that the head names no missing snapshot.
fn race(seed: u64, writers: usize, entries: usize, depth: usize, faults: &[u64]) {
    let host = MemoryHost::with_delays(seed, 3);
    for &call in faults {
        host.inject(call, Fault::Fail);
    }
    let store = MemoryStore::new(&host, options(depth)).unwrap();
    let mut tasks: Vec<Task<'_, Vec<String>>> = (0..writers)
        .map(|w| Box::pin(writer(&store, w, entries)) as Task<'_, _>)
        .collect();
    let waker = Waker::from(Arc::new(Noop));
    let mut cx = Context::from_waker(&waker);
    let mut done: Vec<Option<Vec<String>>> = tasks.iter().map(|_| None).collect();
    let mut pending: Vec<usize> = (0..tasks.len()).collect();
    let mut pick_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while !pending.is_empty() {
        pick_seed ^= pick_seed << 13;
        pick_seed ^= pick_seed >> 7;
        pick_seed ^= pick_seed << 17;
        let pick = usize::try_from(pick_seed % pending.len() as u64).unwrap();
        let i = pending[pick];
        if let Poll::Ready(out) = tasks[i].as_mut().poll(&mut cx) {
            done[i] = Some(out);
            pending.swap_remove(pick);
        }
        for key in named(&host, &alice()) {
            assert!(
                host.peek(&key).is_some(),
                "seed {seed}: the head names {key}, which is missing"
            );
        }
    }
    let acknowledged: Vec<String> = done.into_iter().flatten().flatten().collect();
    assert_eq!(acknowledged.len(), writers * entries, "seed {seed}");
    let loaded = block_on(store.load(&alice())).unwrap();
    for line in &acknowledged {
        assert_eq!(
            loaded.content.matches(line.as_str()).count(),
            1,
            "seed {seed}: {line} is stored once"
        );
    }
    assert_eq!(loaded.revision, acknowledged.len() as u64, "seed {seed}");
    let oldest = loaded.revision + 1 - depth as u64;
    for n in oldest..=loaded.revision {
        assert!(
            block_on(store.revision(&alice(), n)).unwrap().is_some(),
            "seed {seed}: revision {n} is kept"
        );
    }
    // What remains: the head, its kept snapshots, and at most the orphans of
    // lost races and failed calls (never deleted: a twin may share them).
    let names = named(&host, &alice());
    assert_eq!(names.len(), depth);
    let lines: Vec<&str> = loaded.content.lines().collect();
    for key in host.keys() {
        if key == "memdoc/user/alice" || names.contains(&key) {
            continue;
        }
        let record: serde_json::Value =
            serde_json::from_str(&host.peek(&key).unwrap().value).unwrap();
        let n = usize::try_from(record["revision"].as_u64().unwrap()).unwrap();
        let stored_then = lines[..=n].join("\n");
        if faults.is_empty() {
            // Without failures, the snapshot of every acknowledged revision
            // that left the window was deleted: what remains is orphans.
            assert_ne!(
                record["content"].as_str(),
                Some(stored_then.as_str()),
                "seed {seed}: {key} holds pruned revision {n}"
            );
        }
    }
}

#[test]
fn racing_writers_with_pruning_lose_nothing_and_never_name_a_missing_snapshot() {
    for seed in 1..=25 {
        race(seed, 4, 5, 3, &[]);
    }
}

#[test]
fn racing_writers_with_pruning_and_failing_calls_lose_nothing() {
    for seed in 1..=15 {
        race(seed, 3, 5, 2, &[5, 9, 14, 22, 31, 40, 47]);
    }
}
