//! Failing host calls: every call of a save failing or answering garbage,
//! a crash between the writes, a lost answer after the head write.

use super::*;

/// Run `op` on a host primed with two revisions whose call number `k` (after
/// the priming) misbehaves, for every k the operation makes.
fn at_every_call<T: std::fmt::Debug>(
    name: &str,
    fault: Fault,
    op: impl Fn(&MemoryStore<&MemoryHost>) -> Result<T, Err>,
) {
    let probe = MemoryHost::new();
    let s = store(&probe);
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), V2, 1);
    let before = probe.calls();
    let _ = op(&s);
    let calls = probe.calls() - before;
    assert!(calls > 0, "{name} should call the host");
    for k in 1..=calls {
        let host = MemoryHost::new();
        let s = store(&host);
        save(&s, &alice(), V1, 0);
        save(&s, &alice(), V2, 1);
        host.inject(host.calls() + k, fault);
        let err = op(&s).expect_err(&format!(
            "{name}: call {k} of {calls} ({fault:?}) should fail"
        ));
        assert_eq!(
            err.code(),
            "store/host-failed",
            "{name}: call {k} should be host-failed"
        );
        match (&err, fault) {
            (
                StoreError::HostFailed {
                    cause: HostFailure::Malformed(_),
                    ..
                },
                Fault::Malformed,
            ) => {}
            (
                StoreError::HostFailed {
                    cause: HostFailure::Error(e),
                    key,
                },
                Fault::Fail | Fault::FailAfterWrite,
            ) => {
                assert_eq!(
                    &e.key, key,
                    "{name}: should keep the host's own error as the cause"
                );
                assert!(err.host_cause().is_some());
            }
            other => panic!("{name}: unexpected {other:?}"),
        }
        // Whatever failed, the memory still loads and is consistent.
        let loaded = block_on(s.load(&alice())).expect("should still load");
        let history = block_on(s.history(&alice())).unwrap();
        assert_eq!(
            history.len() as u64,
            loaded.revision,
            "{name}: one audit entry per revision"
        );
        for rev in 1..=loaded.revision {
            assert!(
                block_on(s.revision(&alice(), rev)).unwrap().is_some(),
                "{name}: revision {rev} should read back"
            );
        }
        let current = block_on(s.revision(&alice(), loaded.revision)).unwrap();
        assert_eq!(current.as_deref(), Some(loaded.content.as_str()));
    }
}

#[test]
fn a_failed_or_malformed_host_call_is_host_failed_at_every_call() {
    for fault in [Fault::Fail, Fault::Malformed, Fault::FailAfterWrite] {
        at_every_call("load", fault, |s| block_on(s.load(&alice())));
        at_every_call("history", fault, |s| block_on(s.history(&alice())));
        at_every_call("revision", fault, |s| block_on(s.revision(&alice(), 1)));
        at_every_call("save", fault, |s| block_on(s.save(&alice(), V3, &base(2))));
        at_every_call("revert", fault, |s| {
            block_on(s.revert(&alice(), 1, &base(2)))
        });
        at_every_call("first save", fault, |s| {
            block_on(s.save(&team(), V1, &base(0)))
        });
    }
}

#[test]
fn a_crash_between_snapshot_and_head_leaves_a_consistent_memory() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    host.inject(host.calls() + 3, Fault::Fail); // the head put
    let err = block_on(s.save(&alice(), V2, &base(1))).expect_err("the head write fails");
    assert_eq!(err.code(), "store/host-failed");
    let loaded = block_on(s.load(&alice())).unwrap();
    assert_eq!(
        (loaded.revision, loaded.content.as_str()),
        (1, V1),
        "should still hold revision 1"
    );
    let snapshots = host.keys().iter().filter(|k| k.contains("/rev/2/")).count();
    assert_eq!(
        snapshots, 1,
        "should leave the orphan snapshot of the lost write"
    );
    let retry = save(&s, &alice(), V2, 1);
    assert_eq!(
        (retry.status, retry.revision),
        (StoreStatus::Saved, 2),
        "should save on retry"
    );
    assert_eq!(
        block_on(s.revision(&alice(), 2)).unwrap().as_deref(),
        Some(V2)
    );
    assert_eq!(
        block_on(s.revision(&alice(), 1)).unwrap().as_deref(),
        Some(V1)
    );
}

#[test]
fn a_lost_answer_after_the_head_write_is_an_error_but_the_save_is_stored() {
    let host = MemoryHost::new();
    let s = store(&host);
    host.inject(3, Fault::FailAfterWrite);
    let err = block_on(s.save(&alice(), V1, &base(0))).expect_err("the answer is lost");
    assert_eq!(err.code(), "store/host-failed");
    let loaded = block_on(s.load(&alice())).unwrap();
    assert_eq!(
        (loaded.revision, loaded.content.as_str()),
        (1, V1),
        "the write itself happened"
    );
    let again = save(&s, &alice(), V1, 0);
    assert_eq!(
        again.status,
        StoreStatus::Conflict,
        "a blind retry is a conflict, not a duplicate"
    );
}
