//! A store shared between threads, and the stable error codes.

use super::*;

#[test]
fn a_store_over_a_thread_safe_host_can_be_shared_between_threads() {
    fn assert_send<T: Send>(_: &T) {}
    fn assert_sync<T: Sync>(_: &T) {}
    let store = MemoryStore::new(MemoryHost::new(), options()).unwrap();
    assert_sync(&store);
    let (who, how) = (alice(), base(0));
    let save = store.save(&who, V1, &how);
    assert_send(&save);
    let out = std::thread::scope(|scope| scope.spawn(|| block_on(save)).join().unwrap()).unwrap();
    assert_eq!(out.status, StoreStatus::Saved);
    let loaded = std::thread::scope(|scope| {
        scope
            .spawn(|| block_on(store.load(&alice())))
            .join()
            .unwrap()
    });
    assert_eq!(
        loaded.unwrap().revision,
        1,
        "another thread should see the save"
    );
}

#[test]
fn store_error_codes_are_stable() {
    let errors: Vec<Err> = vec![
        StoreError::HostFailed {
            key: "k".into(),
            cause: HostFailure::Malformed("x".into()),
        },
        StoreError::InvalidId("x".into()),
        StoreError::InvalidRevision("x".into()),
        StoreError::RevisionUnavailable {
            revision: 1,
            oldest: 2,
        },
        StoreError::CorruptRecord {
            key: "k".into(),
            reason: "x".into(),
        },
        StoreError::UnsupportedFormat {
            key: "k".into(),
            format: "x".into(),
        },
        StoreError::SnapshotCollision("k".into()),
        StoreError::ImportConflict("k".into()),
        StoreError::InvalidActor("x".into()),
        StoreError::InvalidKeyPrefix("x".into()),
        StoreError::InvalidHistoryDepth("x".into()),
    ];
    let codes: Vec<&str> = errors.iter().map(StoreError::code).collect();
    assert_eq!(
        codes,
        [
            "store/host-failed",
            "store/invalid-id",
            "store/invalid-revision",
            "store/revision-unavailable",
            "store/corrupt-record",
            "store/unsupported-format",
            "store/snapshot-collision",
            "store/import-conflict",
            "store/invalid-actor",
            "options/invalid-key-prefix",
            "options/invalid-history-depth",
        ]
    );
    for e in &errors {
        assert_eq!(
            e.to_string(),
            e.message(),
            "{}: without a host error, Display should be the message alone",
            e.code()
        );
    }
    let host_error: Err = StoreError::HostFailed {
        key: "k".into(),
        cause: HostFailure::Error(MemoryHostError {
            call: 1,
            key: "k".into(),
        }),
    };
    let shown = host_error.to_string();
    assert!(
        shown.starts_with(&host_error.message()) && shown.len() > host_error.message().len(),
        "Display should add the cause to the message"
    );
    assert!(
        std::error::Error::source(&host_error).is_some(),
        "the cause should be the source"
    );
    let mapped = StoreError::HostFailed {
        key: "k".into(),
        cause: HostFailure::Error(3),
    }
    .map_host(|n: i32| n * 2);
    assert_eq!(mapped.host_cause(), Some(&6));
}
