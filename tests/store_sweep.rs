//! `MemoryStore::sweep`: a new revision only when something expired, with
//! the removed entries in its audit entry; nothing written otherwise; coded
//! errors before any write; and racing sweeps and saves that lose nothing.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/schedule.rs"]
mod schedule;

use memdoc::store::{
    block_on, ArchivedEntry, Fault, MemoryHost, MemoryRef, MemoryStore, StoreOptions,
    StoreSaveOptions, StoreStatus, SweepOptions, SweepStatus,
};
use memdoc::{ExpiryPolicy, Scope};
use schedule::{run_all, Task};

const MEMORY: &str = "## Open Questions
- 2025-01-01: Which CI?
- 2025-05-30: Which CDN?

## Decisions
- 2020-01-01: Use Rust";

fn team() -> MemoryRef {
    MemoryRef::new::<()>(Scope::Team, "core").unwrap()
}

fn store(host: &MemoryHost) -> MemoryStore<&MemoryHost> {
    MemoryStore::new(
        host,
        StoreOptions {
            history_depth: 1000,
            now: Some(Box::new(|| "2025-06-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        },
    )
    .unwrap()
}

fn sweep_options(days: u64) -> SweepOptions {
    SweepOptions {
        today: "2025-06-01".into(),
        policies: vec![ExpiryPolicy {
            section: "open questions".into(),
            max_age_days: days,
        }],
        actor: Some("sweeper".into()),
    }
}

fn saved(store: &MemoryStore<&MemoryHost>, text: &str) {
    let out = block_on(store.save(&team(), text, &StoreSaveOptions::default())).unwrap();
    assert_eq!(out.status, StoreStatus::Saved);
}

#[test]
fn a_sweep_that_expires_something_writes_one_revision_with_the_archive() {
    let host = MemoryHost::new();
    let store = store(&host);
    saved(&store, MEMORY);
    let out = block_on(store.sweep(&team(), &sweep_options(30))).unwrap();
    assert_eq!(out.status, SweepStatus::Swept);
    assert_eq!(out.revision, 2);
    assert_eq!(
        out.content,
        "## Open Questions\n- 2025-05-30: Which CDN?\n\n## Decisions\n- 2020-01-01: Use Rust"
    );
    let expected = vec![ArchivedEntry {
        section: "Open Questions".into(),
        date: "2025-01-01".into(),
        text: "Which CI?".into(),
    }];
    assert_eq!(out.archived, expected);
    let loaded = block_on(store.load(&team())).unwrap();
    assert_eq!(
        (loaded.content.as_str(), loaded.revision),
        (out.content.as_str(), 2)
    );
    assert_eq!(loaded.updated_by.as_deref(), Some("sweeper"));
    let history = block_on(store.history(&team())).unwrap();
    assert_eq!(history[0].revision, 2);
    assert_eq!(history[0].archived, expected);
    assert_eq!(history[0].actor.as_deref(), Some("sweeper"));
    assert!(history[1].archived.is_empty());
    // The revision before the sweep is still there.
    assert_eq!(
        block_on(store.revision(&team(), 1)).unwrap().as_deref(),
        Some(MEMORY)
    );
}

#[test]
fn a_sweep_that_expires_nothing_writes_nothing() {
    let host = MemoryHost::new();
    let store = store(&host);
    let empty = block_on(store.sweep(&team(), &sweep_options(0))).unwrap();
    assert_eq!(
        (empty.status, empty.revision, empty.content.as_str()),
        (SweepStatus::Unchanged, 0, "")
    );
    assert_eq!(host.puts(), 0);
    saved(&store, MEMORY);
    block_on(store.sweep(&team(), &sweep_options(30))).unwrap();
    let puts = host.puts();
    for _ in 0..3 {
        let again = block_on(store.sweep(&team(), &sweep_options(30))).unwrap();
        assert_eq!((again.status, again.revision), (SweepStatus::Unchanged, 2));
        assert!(again.archived.is_empty());
    }
    let long = block_on(store.sweep(&team(), &sweep_options(10_000))).unwrap();
    assert_eq!(long.status, SweepStatus::Unchanged);
    assert_eq!(host.puts(), puts, "an idle sweep must not write");
}

#[test]
fn bad_options_are_coded_errors_and_write_nothing() {
    let host = MemoryHost::new();
    let store = store(&host);
    saved(&store, MEMORY);
    let puts = host.puts();
    let typed = SweepOptions {
        today: "June".into(),
        ..sweep_options(1)
    };
    let err = block_on(store.sweep(&team(), &typed)).unwrap_err();
    assert_eq!(err.code(), "options/invalid-date");
    let err = block_on(store.sweep(
        &team(),
        &SweepOptions {
            actor: Some("x".repeat(257)),
            ..sweep_options(1)
        },
    ))
    .unwrap_err();
    assert_eq!(err.code(), "store/invalid-actor");
    let err = block_on(store.sweep(
        &team(),
        &SweepOptions {
            policies: vec![ExpiryPolicy {
                section: " ## ".into(),
                max_age_days: 1,
            }],
            ..sweep_options(1)
        },
    ))
    .unwrap_err();
    assert_eq!(err.code(), "options/invalid-policy");
    assert_eq!(host.puts(), puts);
}

#[test]
fn a_failing_host_call_fails_the_sweep_and_keeps_the_memory() {
    for call in 0..4 {
        let host = MemoryHost::new();
        let store = store(&host);
        saved(&store, MEMORY);
        let first = host.calls();
        host.inject(first + call, Fault::Fail);
        let result = block_on(store.sweep(&team(), &sweep_options(30)));
        host.clear_faults();
        let loaded = block_on(store.load(&team())).unwrap();
        match result {
            Err(e) => {
                assert_eq!(e.code(), "store/host-failed", "call {call}");
                assert_eq!((loaded.content.as_str(), loaded.revision), (MEMORY, 1));
            }
            // A failed delete of an old snapshot does not undo the sweep.
            Ok(out) => assert_eq!((out.status, loaded.revision), (SweepStatus::Swept, 2)),
        }
        // Sweeping again finishes the job exactly once.
        block_on(store.sweep(&team(), &sweep_options(30))).unwrap();
        let history = block_on(store.history(&team())).unwrap();
        let archived: usize = history.iter().map(|h| h.archived.len()).sum();
        assert_eq!(archived, 1, "call {call}");
    }
}

/// Writers append entries dated today (never expired) and retry on
/// conflict; sweepers expire the old entries at the same time.
/// Returns how many saves met a conflict.
fn race(seed: u64) -> usize {
    let host = MemoryHost::with_delays(seed, 3);
    let store = store(&host);
    let old: Vec<String> = (1..=6)
        .map(|i| format!("- 2025-01-0{i}: old question {i}"))
        .collect();
    saved(
        &store,
        &format!("## Open Questions\n{}\n\n## Log", old.join("\n")),
    );
    let writer = |w: usize| {
        let store = &store;
        Box::pin(async move {
            let mut acknowledged = Vec::new();
            let mut conflicts = Vec::new();
            for i in 0..3 {
                let line = format!("- 2025-06-01: writer {w} entry {i}");
                loop {
                    let current = store.load(&team()).await.unwrap();
                    let options = StoreSaveOptions {
                        base_revision: current.revision,
                        ..StoreSaveOptions::default()
                    };
                    let text = format!("{}\n{line}", current.content);
                    let out = store.save(&team(), &text, &options).await.unwrap();
                    if out.status == StoreStatus::Saved {
                        acknowledged.push(line);
                        break;
                    }
                    assert_eq!(out.status, StoreStatus::Conflict);
                    conflicts.push(SweepStatus::Conflict);
                }
            }
            (acknowledged, conflicts)
        }) as Task<'_, (Vec<String>, Vec<SweepStatus>)>
    };
    let sweeper = || {
        let store = &store;
        Box::pin(async move {
            let mut statuses = Vec::new();
            for _ in 0..2 {
                statuses.push(
                    store
                        .sweep(&team(), &sweep_options(30))
                        .await
                        .unwrap()
                        .status,
                );
            }
            (Vec::new(), statuses)
        }) as Task<'_, (Vec<String>, Vec<SweepStatus>)>
    };
    let tasks = vec![writer(0), sweeper(), writer(1), sweeper(), sweeper()];
    let results = run_all(tasks, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let acknowledged: Vec<&String> = results.iter().flat_map(|(a, _)| a).collect();
    let count = |status: SweepStatus| {
        results
            .iter()
            .flat_map(|(_, s)| s)
            .filter(|s| **s == status)
            .count()
    };
    let swept = count(SweepStatus::Swept);
    // A last sweep after the race: whatever the race left is swept now.
    let last = block_on(store.sweep(&team(), &sweep_options(30))).unwrap();
    let swept = swept + usize::from(last.status == SweepStatus::Swept);
    let loaded = block_on(store.load(&team())).unwrap();
    for line in &acknowledged {
        assert_eq!(
            loaded.content.matches(line.as_str()).count(),
            1,
            "seed {seed}: {line} lost"
        );
    }
    for line in &old {
        assert!(
            !loaded.content.contains(line.as_str()),
            "seed {seed}: {line} kept"
        );
    }
    let history = block_on(store.history(&team())).unwrap();
    let mut archived: Vec<String> = history
        .iter()
        .flat_map(|h| {
            h.archived
                .iter()
                .map(|e| format!("- {}: {}", e.date, e.text))
        })
        .collect();
    archived.sort();
    assert_eq!(
        archived, old,
        "seed {seed}: every old entry archived exactly once"
    );
    assert_eq!(
        loaded.revision,
        1 + acknowledged.len() as u64 + swept as u64,
        "seed {seed}: one revision per acknowledged save or sweep"
    );
    count(SweepStatus::Conflict)
}

#[test]
fn racing_sweeps_and_saves_lose_nothing_and_archive_once() {
    let conflicts: usize = (1..=40).map(race).sum();
    assert!(
        conflicts > 10,
        "the saves and sweeps should really have raced ({conflicts})"
    );
}
