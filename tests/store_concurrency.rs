//! Racing writers, natively: a cooperative scheduler polls several saves in
//! a seeded random order while the host yields a random number of times in
//! every call, so reads and writes of different writers interleave. Writers
//! retry on conflict after re-reading. Nothing acknowledged may be lost, and
//! every revision must be one acknowledged save.

#[path = "common/schedule.rs"]
mod schedule;

use memdoc::store::{
    block_on, Fault, MemoryHost, MemoryRef, MemoryStore, StoreOptions, StoreSaveOptions,
    StoreStatus,
};
use memdoc::Scope;
use schedule::{run_all, Task};

fn memory() -> MemoryRef {
    MemoryRef::new::<()>(Scope::Team, "racers").unwrap()
}

/// One writer: add `entries` lines, each with its own save, re-reading and
/// retrying on conflict. Returns the acknowledged entries, the number of
/// failed calls and the number of conflicts.
async fn writer(
    store: &MemoryStore<&MemoryHost>,
    w: usize,
    entries: usize,
) -> (Vec<String>, usize, usize) {
    let mut acknowledged = Vec::new();
    let mut failures = 0;
    let mut conflicts = 0;
    for i in 0..entries {
        let line = format!("- 2025-02-01: writer {w} entry {i}");
        loop {
            let Ok(current) = store.load(&memory()).await else {
                failures += 1;
                continue;
            };
            let text = if current.content.is_empty() {
                format!("## Log\n{line}")
            } else {
                format!("{}\n{line}", current.content)
            };
            let options = StoreSaveOptions {
                base_revision: current.revision,
                actor: Some(format!("writer-{w}")),
                ..StoreSaveOptions::default()
            };
            match store.save(&memory(), &text, &options).await {
                Ok(out) if out.status == StoreStatus::Saved => {
                    assert!(
                        out.content.contains(&line),
                        "the acknowledged content should hold the entry"
                    );
                    acknowledged.push(line);
                    break;
                }
                Ok(out) => {
                    assert_eq!(
                        out.status,
                        StoreStatus::Conflict,
                        "only conflicts are retried"
                    );
                    conflicts += 1;
                }
                Err(e) => {
                    assert_eq!(e.code(), "store/host-failed");
                    failures += 1;
                }
            }
        }
    }
    (acknowledged, failures, conflicts)
}

/// Returns how many conflicts the writers met.
fn race(seed: u64, writers: usize, entries: usize, faults: &[u64]) -> usize {
    let host = MemoryHost::with_delays(seed, 3);
    for &call in faults {
        host.inject(call, Fault::Fail);
    }
    let store = MemoryStore::new(
        &host,
        StoreOptions {
            history_depth: 1000,
            now: Some(Box::new(|| "2025-02-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let tasks: Vec<Task<'_, (Vec<String>, usize, usize)>> = (0..writers)
        .map(|w| Box::pin(writer(&store, w, entries)) as Task<'_, _>)
        .collect();
    let results = run_all(tasks, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let acknowledged: Vec<String> = results.iter().flat_map(|(a, _, _)| a.clone()).collect();
    let failures: usize = results.iter().map(|(_, f, _)| f).sum();
    assert_eq!(
        acknowledged.len(),
        writers * entries,
        "seed {seed}: every writer finishes"
    );

    let loaded = block_on(store.load(&memory())).unwrap();
    for line in &acknowledged {
        assert_eq!(
            loaded.content.matches(line.as_str()).count(),
            1,
            "seed {seed}: {line} should be stored once"
        );
    }
    assert_eq!(
        loaded.revision,
        acknowledged.len() as u64,
        "seed {seed}: one revision per acknowledged save"
    );
    let history = block_on(store.history(&memory())).unwrap();
    assert_eq!(
        history.len(),
        acknowledged.len(),
        "seed {seed}: one audit entry per acknowledged save"
    );
    // Each revision adds exactly one line to the one before it.
    let mut previous = String::new();
    for rev in 1..=loaded.revision {
        let content = block_on(store.revision(&memory(), rev))
            .unwrap()
            .expect("kept");
        let added = content
            .lines()
            .filter(|l| l.starts_with("- ") && !previous.contains(l))
            .count();
        assert_eq!(added, 1, "seed {seed}: revision {rev} adds one entry");
        previous = content;
    }
    assert_eq!(previous, loaded.content);
    if !faults.is_empty() {
        assert!(
            failures > 0,
            "seed {seed}: injected faults should have been seen"
        );
    }
    results.iter().map(|(_, _, c)| c).sum()
}

#[test]
fn racing_writers_lose_nothing_and_make_one_revision_per_acknowledged_save() {
    let conflicts: usize = (1..=25).map(|seed| race(seed, 4, 5, &[])).sum();
    assert!(
        conflicts > 25,
        "the writers should really have raced ({conflicts} conflicts)"
    );
}

#[test]
fn racing_writers_with_failing_calls_still_lose_nothing() {
    let conflicts: usize = (1..=10)
        .map(|seed| race(seed, 3, 4, &[5, 11, 17, 23, 40, 41, 60]))
        .sum();
    assert!(conflicts > 0, "the writers should really have raced");
}

#[test]
fn twin_writers_share_an_identical_snapshot_and_one_of_them_conflicts() {
    let host = MemoryHost::new();
    let options = || StoreOptions {
        now: Some(Box::new(|| "2025-02-01T00:00:00.000Z".to_owned())),
        ..StoreOptions::default()
    };
    let text = "## Log\n- 2025-02-01: same";
    let save = StoreSaveOptions {
        actor: Some("twin".into()),
        ..StoreSaveOptions::default()
    };
    let save2 = save.clone();
    // Call 2 is the first writer's snapshot put; the twin saves everything first.
    host.before_call(2, move |h| {
        let twin = MemoryStore::new(h, options()).unwrap();
        let out = block_on(twin.save(&memory(), text, &save2)).unwrap();
        assert_eq!(out.status, StoreStatus::Saved);
    });
    let store = MemoryStore::new(&host, options()).unwrap();
    let out = block_on(store.save(&memory(), text, &save)).unwrap();
    assert_eq!(
        (out.status, out.revision),
        (StoreStatus::Conflict, 1),
        "the later twin should conflict"
    );
    let snapshots: Vec<String> = host
        .keys()
        .into_iter()
        .filter(|k| k.contains("/rev/"))
        .collect();
    assert_eq!(
        snapshots.len(),
        1,
        "identical snapshots share one key: {snapshots:?}"
    );
    assert_eq!(
        block_on(store.revision(&memory(), 1)).unwrap().as_deref(),
        Some(text)
    );
}

#[test]
fn a_snapshot_key_taken_by_different_data_is_never_overwritten() {
    let options = || StoreOptions {
        now: Some(Box::new(|| "2025-02-01T00:00:00.000Z".to_owned())),
        ..StoreOptions::default()
    };
    let text = "## Log\n- 2025-02-01: mine";
    let probe = MemoryHost::new();
    block_on(MemoryStore::new(&probe, options()).unwrap().save(
        &memory(),
        text,
        &StoreSaveOptions::default(),
    ))
    .unwrap();
    let key = probe
        .keys()
        .into_iter()
        .find(|k| k.contains("/rev/1/"))
        .unwrap();

    let host = MemoryHost::new();
    host.set(&key, "someone else's bytes");
    let store = MemoryStore::new(&host, options()).unwrap();
    let out = block_on(store.save(&memory(), text, &StoreSaveOptions::default())).unwrap();
    assert_eq!((out.status, out.revision), (StoreStatus::Saved, 1));
    assert_eq!(
        host.peek(&key).unwrap().value,
        "someone else's bytes",
        "should not overwrite the taken key"
    );
    assert_eq!(
        block_on(store.revision(&memory(), 1)).unwrap().as_deref(),
        Some(text)
    );
    let salted = host
        .keys()
        .into_iter()
        .filter(|k| k.starts_with(&key) && k != &key)
        .count();
    assert_eq!(salted, 1, "should use a salted key instead");
}
