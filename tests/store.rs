//! The store over an in-memory host: every save path, every failing host
//! call, history, revert, ids, options, the record format and the JS views.
// Native only: it shares stores between threads.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use memdoc::js::input::{MemoryRefInput, StoreOptionsInput, StoreSaveOptionsInput};
use memdoc::js::store::SaveOutcomeView;
use memdoc::store::{
    block_on, Fault, HostFailure, MemoryHost, MemoryHostError, MemoryRef, MemoryStore, OnConflict,
    RewriteRequest, StoreError, StoreOptions, StoreSaveOptions, StoreStatus,
};
use memdoc::{Limits, Scope};
use serde_json::json;

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

#[test]
fn first_save_stores_revision_one_and_loads_back() {
    let host = MemoryHost::new();
    let s = store(&host);
    let empty = block_on(s.load(&alice())).expect("load");
    assert_eq!(
        (
            empty.content.as_str(),
            empty.revision,
            empty.updated_at.as_deref()
        ),
        ("", 0, None),
        "should load an absent memory as revision 0"
    );

    let out = save(
        &s,
        &alice(),
        "Sure!\n## Facts\n- 2025-03-15: Lives in Seattle\n",
        0,
    );
    assert_eq!(out.status, StoreStatus::Saved, "should save");
    assert_eq!(out.revision, 1, "should be revision 1");
    assert!(out.changed, "should be a change");
    assert_eq!(out.content, V1, "should store the canonical form");
    assert_eq!(out.dropped, ["Sure!"], "should report the dropped preamble");
    assert_eq!(host.puts(), 2, "should write a snapshot and the head");

    let loaded = block_on(s.load(&alice())).expect("load");
    assert_eq!(loaded.content, V1, "should load what was saved");
    assert_eq!(loaded.revision, 1, "should load revision 1");
    assert_eq!(
        loaded.updated_by.as_deref(),
        Some("agent"),
        "should record the actor"
    );
    assert_eq!(
        loaded.updated_at.as_deref(),
        Some("2025-06-01T00:00:00.000Z"),
        "should use the injected clock"
    );
    assert_eq!(
        loaded.usage.chars,
        V1.chars().count(),
        "should measure the content"
    );

    let history = block_on(s.history(&alice())).expect("history");
    assert_eq!(history.len(), 1, "should have one audit entry");
    assert_eq!(history[0].revision, 1);
    assert_eq!(history[0].delta, i64::try_from(V1.chars().count()).unwrap());
    assert_eq!(
        history[0].codes,
        ["structure/preamble-dropped"],
        "should record the warning codes"
    );
}

#[test]
fn a_no_op_sentinel_and_an_unchanged_document_write_nothing() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    let puts = host.puts();
    let out = save(&s, &alice(), "  no_update ", 1);
    assert_eq!(
        (out.status, out.revision, out.content.as_str(), out.changed),
        (StoreStatus::NoOp, 1, V1, false),
        "should keep the memory"
    );
    let same = save(&s, &alice(), &format!("{V1}\n\n"), 1);
    assert_eq!(
        (same.status, same.revision, same.changed),
        (StoreStatus::Saved, 1, false),
        "should not make a revision of identical content"
    );
    assert_eq!(host.puts(), puts, "should write nothing");
    assert_eq!(
        block_on(s.history(&alice())).unwrap().len(),
        1,
        "should add no audit entry"
    );
}

#[test]
fn a_rejected_save_writes_nothing_and_keeps_the_memory() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(
        &s,
        &team(),
        "## Decisions\n- 2025-01-01: Ship on Fridays",
        0,
    );
    let puts = host.puts();
    let out = save(
        &s,
        &team(),
        "## Decisions\n- 2025-01-01: Ship on Fridays\n\n## Preferences\n- 2025-01-02: Dark mode",
        1,
    );
    assert_eq!(
        out.status,
        StoreStatus::Rejected,
        "should reject a personal heading in team scope"
    );
    assert_eq!(out.revision, 1, "should stay at revision 1");
    assert_eq!(
        out.content, "## Decisions\n- 2025-01-01: Ship on Fridays",
        "should report the stored content"
    );
    let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["scope/personal-heading"]);
    let erase = save(&s, &team(), "", 1);
    assert_eq!(
        erase.status,
        StoreStatus::Rejected,
        "should not erase without allowErase"
    );
    assert_eq!(host.puts(), puts, "should write nothing");
}

#[test]
fn an_allowed_erase_is_a_revision() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    let opts = StoreSaveOptions {
        allow_erase: true,
        ..base(1)
    };
    let out = block_on(s.save(&alice(), "", &opts)).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Saved, 2, ""),
        "should store the empty memory"
    );
    assert_eq!(
        block_on(s.revision(&alice(), 1)).unwrap().as_deref(),
        Some(V1),
        "should keep the erased revision"
    );
}

#[test]
fn a_stale_base_revision_is_a_conflict_and_writes_nothing() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), V2, 1);
    let puts = host.puts();
    let out = save(&s, &alice(), "## Facts\n- 2025-03-15: Lives in Oslo", 1);
    assert_eq!(
        out.status,
        StoreStatus::Conflict,
        "should report a conflict"
    );
    assert_eq!(
        (out.revision, out.content.as_str()),
        (2, V2),
        "should hand back the current revision and content"
    );
    assert!(!out.changed, "should change nothing");
    assert!(
        out.notice
            .as_deref()
            .is_some_and(|n| n.contains("baseRevision 2")),
        "should tell how to retry: {:?}",
        out.notice
    );
    let ahead = save(&s, &alice(), V3, 7);
    assert_eq!(
        (ahead.status, ahead.revision),
        (StoreStatus::Conflict, 2),
        "should treat a base from the future as a conflict"
    );
    let fresh = save(&s, &alice(), V3, 0);
    assert_eq!(
        fresh.status,
        StoreStatus::Conflict,
        "should not let a new-memory save overwrite an existing one"
    );
    assert_eq!(host.puts(), puts, "should write nothing");
}

#[test]
fn merge_on_conflict_saves_a_clean_three_way_merge() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), V2, 1);
    let edited_from_v1 = "## Facts\n- 2025-03-15: Lives in Seattle\n- 2025-03-17: Likes tea";
    let opts = StoreSaveOptions {
        on_conflict: OnConflict::Merge,
        ..base(1)
    };
    let out = block_on(s.save(&alice(), edited_from_v1, &opts)).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Saved, 3, V3),
        "should keep both sides' entries"
    );
    assert!(
        out.notice.as_deref().is_some_and(|n| n.contains("Merged")),
        "should report the merge: {:?}",
        out.notice
    );
    assert_eq!(
        block_on(s.load(&alice())).unwrap().content,
        V3,
        "should store the merge"
    );
}

#[test]
fn merge_on_conflict_reports_overlapping_edits_and_writes_nothing() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), "## Notes\nshared line", 0);
    save(&s, &alice(), "## Notes\nchanged by bob", 1);
    let puts = host.puts();
    let opts = StoreSaveOptions {
        on_conflict: OnConflict::Merge,
        ..base(1)
    };
    let out = block_on(s.save(&alice(), "## Notes\nchanged by alice", &opts)).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Conflict, 2, "## Notes\nchanged by bob"),
        "should hand back the current revision, unmerged"
    );
    assert!(
        out.notice
            .as_deref()
            .is_some_and(|n| n.contains("`## Notes`")),
        "should say where the edits conflict: {:?}",
        out.notice
    );
    assert_eq!(host.puts(), puts, "should write nothing");
}

#[test]
fn a_head_changed_between_read_and_write_is_a_conflict_not_an_overwrite() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    let calls = host.calls();
    // Call calls+1 is the head read, calls+2 the snapshot put, calls+3 the
    // head put: another writer stores revision 2 just before that.
    host.before_call(calls + 3, |h| {
        let other = MemoryStore::new(h, options()).unwrap();
        let out = block_on(other.save(&alice(), V2, &base(1))).unwrap();
        assert_eq!(out.status, StoreStatus::Saved);
    });
    let out = save(&s, &alice(), V3, 1);
    assert_eq!(
        out.status,
        StoreStatus::Conflict,
        "should detect the moved version"
    );
    assert_eq!(
        (out.revision, out.content.as_str()),
        (2, V2),
        "should report the other writer's revision"
    );
    let loaded = block_on(s.load(&alice())).unwrap();
    assert_eq!(
        (loaded.revision, loaded.content.as_str()),
        (2, V2),
        "should keep the other writer's save"
    );
    assert_eq!(
        block_on(s.history(&alice())).unwrap().len(),
        2,
        "should have exactly two revisions"
    );
    let retry = save(&s, &alice(), V3, 2);
    assert_eq!(
        (retry.status, retry.revision),
        (StoreStatus::Saved, 3),
        "should save after re-reading"
    );
}

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

#[test]
fn history_is_bounded_and_newest_first() {
    let host = MemoryHost::new();
    let s = MemoryStore::new(
        &host,
        StoreOptions {
            history_depth: 3,
            ..options()
        },
    )
    .unwrap();
    let mut text = String::from("## Log");
    for rev in 1..=5u64 {
        text.push_str(&format!("\n- 2025-01-0{rev}: entry {rev}"));
        let out = block_on(s.save(&alice(), &text, &base(rev - 1))).unwrap();
        assert_eq!(out.revision, rev);
    }
    let history = block_on(s.history(&alice())).unwrap();
    let revisions: Vec<u64> = history.iter().map(|a| a.revision).collect();
    assert_eq!(
        revisions,
        [5, 4, 3],
        "should keep the newest three, newest first"
    );
    assert!(history
        .iter()
        .all(|a| a.delta > 0 && a.actor.as_deref() == Some("agent")));
    for rev in 3..=5 {
        assert!(
            block_on(s.revision(&alice(), rev)).unwrap().is_some(),
            "revision {rev} should be kept"
        );
    }
    for rev in [0, 1, 2, 6] {
        assert_eq!(
            block_on(s.revision(&alice(), rev)).unwrap(),
            None,
            "revision {rev} should not be readable"
        );
    }
    let err = block_on(s.revert(&alice(), 2, &base(5))).unwrap_err();
    assert_eq!(err.code(), "store/revision-unavailable");
    for bad in [0, 6] {
        assert_eq!(
            block_on(s.revert(&alice(), bad, &base(5)))
                .unwrap_err()
                .code(),
            "store/invalid-revision"
        );
    }
    let record: serde_json::Value =
        serde_json::from_str(&host.peek("memdoc/user/alice").unwrap().value).unwrap();
    assert_eq!(
        record["snapshots"].as_array().map(Vec::len),
        Some(3),
        "the head should name three snapshots"
    );
}

#[test]
fn revert_saves_an_old_revision_as_a_new_one_that_can_be_reverted() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), V2, 1);
    save(&s, &alice(), V3, 2);
    let out = block_on(s.revert(&alice(), 1, &base(3))).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Saved, 4, V1),
        "should store revision 1's content as 4"
    );
    let entry = &block_on(s.history(&alice())).unwrap()[0];
    let shrink =
        i64::try_from(V1.chars().count()).unwrap() - i64::try_from(V3.chars().count()).unwrap();
    assert_eq!(
        (entry.revision, entry.delta),
        (4, shrink),
        "the audit should record the shrink"
    );
    let back = block_on(s.revert(&alice(), 3, &base(4))).unwrap();
    assert_eq!(
        (back.status, back.revision, back.content.as_str()),
        (StoreStatus::Saved, 5, V3),
        "should undo the revert"
    );
    let stale = block_on(s.revert(&alice(), 2, &base(4))).unwrap();
    assert_eq!(
        (stale.status, stale.revision),
        (StoreStatus::Conflict, 5),
        "a revert from a stale base is a conflict"
    );
    assert_eq!(
        block_on(s.revert(
            &MemoryRef::new::<()>(Scope::User, "nobody").unwrap(),
            1,
            &base(0)
        ))
        .unwrap_err()
        .code(),
        "store/invalid-revision"
    );
}

#[test]
fn bad_ids_and_scopes_fail_before_any_host_call() {
    for bad in [
        "",
        "-x",
        "a/b",
        "../alice",
        "a b",
        "é",
        "a\u{0}",
        &"a".repeat(129),
    ] {
        let err = MemoryRef::new::<()>(Scope::User, bad).unwrap_err();
        assert_eq!(err.code(), "store/invalid-id", "should reject id {bad:?}");
        let input = MemoryRefInput {
            scope: "user".into(),
            id: bad.into(),
        };
        assert_eq!(
            input.resolve::<()>().unwrap_err().code(),
            "store/invalid-id"
        );
    }
    for bad in ["User", "teams", ""] {
        let input = MemoryRefInput {
            scope: bad.into(),
            id: "alice".into(),
        };
        assert_eq!(
            input.resolve::<()>().unwrap_err().code(),
            "options/invalid-scope",
            "should reject scope {bad:?}"
        );
    }
    let input: MemoryRefInput =
        serde_json::from_value(json!({"scope": "team", "id": "eng.team@x:1"})).unwrap();
    assert_eq!(
        input.resolve::<()>().unwrap(),
        MemoryRef::new::<()>(Scope::Team, "eng.team@x:1").unwrap()
    );
    // The type makes an unchecked id impossible, and a bad actor fails before the host.
    let host = MemoryHost::new();
    let s = store(&host);
    let long = StoreSaveOptions {
        actor: Some("x".repeat(257)),
        ..base(0)
    };
    assert_eq!(
        block_on(s.save(&alice(), V1, &long)).unwrap_err().code(),
        "store/invalid-actor"
    );
    assert_eq!(host.calls(), 0, "should not touch the host");
}

#[test]
fn memories_are_isolated_by_scope_and_id() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(
        &s,
        &MemoryRef::new::<()>(Scope::User, "eng").unwrap(),
        V1,
        0,
    );
    save(&s, &team(), V2, 0);
    assert_eq!(
        block_on(s.load(&MemoryRef::new::<()>(Scope::User, "eng").unwrap()))
            .unwrap()
            .content,
        V1
    );
    assert_eq!(block_on(s.load(&team())).unwrap().content, V2);
    // A head copied under another id is refused, not served.
    let stolen = host.peek("memdoc/team/eng").unwrap().value;
    host.set("memdoc/team/other", &stolen);
    let err = block_on(s.load(&MemoryRef::new::<()>(Scope::Team, "other").unwrap())).unwrap_err();
    assert_eq!(err.code(), "store/corrupt-record");
}

#[test]
fn corrupt_and_foreign_records_are_errors_not_empty_memories() {
    let host = MemoryHost::new();
    let s = store(&host);
    let key = "memdoc/user/alice";
    for (value, code) in [
        ("not json", "store/corrupt-record"),
        ("{}", "store/corrupt-record"),
        (
            r#"{"format":"memdoc/2","anything":1}"#,
            "store/unsupported-format",
        ),
        (
            r#"{"format":"memdoc/1","kind":"head"}"#,
            "store/corrupt-record",
        ),
    ] {
        host.set(key, value);
        assert_eq!(
            block_on(s.load(&alice())).unwrap_err().code(),
            code,
            "{value}"
        );
        assert_eq!(
            block_on(s.save(&alice(), V1, &base(0))).unwrap_err().code(),
            code,
            "{value}"
        );
    }
    // A valid head with an unknown field is refused rather than silently dropped on the next write.
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    let mut head: serde_json::Value = serde_json::from_str(&host.peek(key).unwrap().value).unwrap();
    head["extra"] = json!(true);
    host.set(key, &head.to_string());
    assert_eq!(
        block_on(s.load(&alice())).unwrap_err().code(),
        "store/corrupt-record"
    );
    // A head of another format is that format's, also when its fields are
    // exactly this format's (the record then parses whole before its tag
    // is looked at).
    let mut later = head.clone();
    later.as_object_mut().unwrap().remove("extra");
    later["format"] = json!("memdoc/2");
    host.set(key, &later.to_string());
    let err = block_on(s.load(&alice())).unwrap_err();
    assert_eq!(err.code(), "store/unsupported-format");
    assert!(err.to_string().contains("memdoc/2"), "{err}");
    // A revision no save could follow is refused (it would overflow).
    let mut huge = head.clone();
    huge.as_object_mut().unwrap().remove("extra");
    huge["revision"] = json!(u64::MAX);
    huge["snapshots"][0]["revision"] = json!(u64::MAX);
    host.set(key, &huge.to_string());
    assert_eq!(
        block_on(s.save(&alice(), V2, &base(u64::MAX)))
            .unwrap_err()
            .code(),
        "store/corrupt-record"
    );
    // A head that names a snapshot of another memory is refused.
    head.as_object_mut().unwrap().remove("extra");
    head["snapshots"][0]["key"] = json!("memdoc/user/bob/rev/1/0000000000000000");
    host.set(key, &head.to_string());
    assert_eq!(
        block_on(s.load(&alice())).unwrap_err().code(),
        "store/corrupt-record"
    );
    // A missing snapshot is reported, not read as "no revision".
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), V2, 1);
    let head: serde_json::Value = serde_json::from_str(&host.peek(key).unwrap().value).unwrap();
    let snap_key = head["snapshots"][1]["key"].as_str().unwrap().to_owned();
    host.set(&snap_key, "garbage");
    assert_eq!(
        block_on(s.revision(&alice(), 1)).unwrap_err().code(),
        "store/corrupt-record"
    );
}

#[test]
fn the_head_record_has_the_documented_shape() {
    let host = MemoryHost::new();
    let s = store(&host);
    save(&s, &team(), V1, 0);
    let opts = StoreSaveOptions {
        actor: None,
        ..base(1)
    };
    block_on(s.save(&team(), V2, &opts)).unwrap();
    let head: serde_json::Value =
        serde_json::from_str(&host.peek("memdoc/team/eng").unwrap().value).unwrap();
    let snaps = head["snapshots"].as_array().unwrap();
    let keys: Vec<&str> = snaps.iter().map(|s| s["key"].as_str().unwrap()).collect();
    assert!(
        keys[0].starts_with("memdoc/team/eng/rev/2/")
            && keys[1].starts_with("memdoc/team/eng/rev/1/"),
        "{keys:?}"
    );
    let v1_chars = V1.chars().count();
    let v2_chars = V2.chars().count();
    let want = json!({
        "format": "memdoc/1",
        "kind": "head",
        "scope": "team",
        "id": "eng",
        "revision": 2,
        "content": V2,
        "updatedAt": "2025-06-01T00:00:01.000Z",
        "updatedBy": null,
        "snapshots": [{"revision": 2, "key": keys[0]}, {"revision": 1, "key": keys[1]}],
        "audit": [
            {"revision": 2, "at": "2025-06-01T00:00:01.000Z", "actor": null, "chars": v2_chars, "delta": v2_chars - v1_chars, "codes": []},
            {"revision": 1, "at": "2025-06-01T00:00:00.000Z", "actor": "agent", "chars": v1_chars, "delta": v1_chars, "codes": []},
        ],
    });
    assert_eq!(head, want, "should match docs/record-format.md");
    let snap: serde_json::Value = serde_json::from_str(&host.peek(keys[1]).unwrap().value).unwrap();
    assert_eq!(
        snap,
        json!({"format": "memdoc/1", "kind": "snapshot", "scope": "team", "id": "eng", "revision": 1, "content": V1, "at": "2025-06-01T00:00:00.000Z", "actor": "agent"}),
        "should match docs/record-format.md"
    );
}

#[test]
fn a_custom_prefix_is_used_for_every_key() {
    let host = MemoryHost::new();
    let s = MemoryStore::new(
        &host,
        StoreOptions {
            key_prefix: "app/mem".into(),
            ..options()
        },
    )
    .unwrap();
    save(&s, &alice(), V1, 0);
    assert!(
        host.keys()
            .iter()
            .all(|k| k.starts_with("app/mem/user/alice")),
        "{:?}",
        host.keys()
    );
}

#[test]
fn store_options_are_validated_with_codes() {
    let host = MemoryHost::new();
    for (opts, code) in [
        (
            StoreOptions {
                key_prefix: String::new(),
                ..StoreOptions::default()
            },
            "options/invalid-key-prefix",
        ),
        (
            StoreOptions {
                key_prefix: "a//b".into(),
                ..StoreOptions::default()
            },
            "options/invalid-key-prefix",
        ),
        (
            StoreOptions {
                history_depth: 0,
                ..StoreOptions::default()
            },
            "options/invalid-history-depth",
        ),
        (
            StoreOptions {
                history_depth: 1001,
                ..StoreOptions::default()
            },
            "options/invalid-history-depth",
        ),
        (
            StoreOptions {
                limits: Limits { soft: 10, hard: 5 },
                ..StoreOptions::default()
            },
            "options/invalid-limits",
        ),
    ] {
        let err = MemoryStore::new(&host, opts)
            .err()
            .expect("should be refused");
        assert_eq!(err.code(), code);
    }
    let input = |v: serde_json::Value| {
        serde_json::from_value::<StoreOptionsInput>(v)
            .unwrap()
            .resolve::<()>()
    };
    let ok = input(json!({"limits": {"soft": 400, "hard": 500}, "keyPrefix": "x", "historyDepth": 5, "forbiddenTeamHeadings": ["secrets"]})).unwrap();
    assert_eq!(
        (
            ok.limits.hard,
            ok.limits.soft,
            ok.key_prefix.as_str(),
            ok.history_depth
        ),
        (500, 400, "x", 5)
    );
    assert_eq!(ok.forbidden_team_headings, ["secrets"]);
    for (v, code) in [
        (
            json!({"historyDepth": 2.5}),
            "options/invalid-history-depth",
        ),
        (json!({"historyDepth": -1}), "options/invalid-history-depth"),
        (json!({"historyDepth": 0}), "options/invalid-history-depth"),
        (json!({"keyPrefix": "a b"}), "options/invalid-key-prefix"),
        (json!({"limits": {"soft": -3}}), "options/invalid-limits"),
    ] {
        assert_eq!(input(v.clone()).unwrap_err().code(), code, "{v}");
    }
    let save_input = |v: serde_json::Value| {
        serde_json::from_value::<StoreSaveOptionsInput>(v)
            .unwrap()
            .resolve::<()>()
    };
    let ok = save_input(
        json!({"baseRevision": 3, "actor": "bob", "allowErase": true, "onConflict": "merge"}),
    )
    .unwrap();
    assert_eq!(
        ok,
        StoreSaveOptions {
            base_revision: 3,
            actor: Some("bob".into()),
            allow_erase: true,
            on_conflict: OnConflict::Merge
        }
    );
    assert_eq!(
        save_input(json!({"baseRevision": 0})).unwrap().on_conflict,
        OnConflict::Reject
    );
    for (v, code) in [
        (json!({}), "store/invalid-revision"),
        (json!({"baseRevision": -1}), "store/invalid-revision"),
        (json!({"baseRevision": 1.5}), "store/invalid-revision"),
        (
            json!({"baseRevision": 1, "onConflict": "overwrite"}),
            "options/invalid",
        ),
        (
            json!({"baseRevision": 1, "actor": "y".repeat(300)}),
            "store/invalid-actor",
        ),
    ] {
        assert_eq!(save_input(v.clone()).unwrap_err().code(), code, "{v}");
    }
}

fn small_limits() -> StoreOptions {
    StoreOptions {
        limits: Limits { soft: 60, hard: 80 },
        ..options()
    }
}

fn too_long() -> String {
    let mut s = String::from("## Decisions\n- 2025-01-01: Ship on Fridays");
    for i in 0..5 {
        s.push_str(&format!("\n- 2025-01-0{}: Note number {i}", i + 2));
    }
    s
}

#[test]
fn over_the_hard_limit_without_a_rewrite_is_rejected() {
    let host = MemoryHost::new();
    let s = MemoryStore::new(&host, small_limits()).unwrap();
    let out = block_on(s.save(&alice(), &too_long(), &base(0))).unwrap();
    assert_eq!(out.status, StoreStatus::Rejected);
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "size/hard-limit"));
    assert_eq!(out.notice, None);
    assert_eq!(host.puts(), 0);
}

#[test]
fn an_accepted_rewrite_is_saved_with_a_notice() {
    let host = MemoryHost::new();
    let seen: Rc<Cell<Option<(usize, bool)>>> = Rc::new(Cell::new(None));
    let seen2 = Rc::clone(&seen);
    let s = MemoryStore::new(&host, small_limits())
        .unwrap()
        .with_rewrite(move |req: RewriteRequest| {
            let seen = Rc::clone(&seen2);
            async move {
                seen.set(Some((req.target, req.prompt.ends_with(&req.content))));
                Ok::<_, ()>("```\n## Decisions\n- 2025-01-01: Ship on Fridays\n```".to_owned())
            }
        });
    let input = format!("```markdown\n{}\n```", too_long());
    let out = block_on(s.save(&alice(), &input, &base(0))).unwrap();
    assert_eq!(out.status, StoreStatus::Saved, "should save the rewrite");
    assert_eq!(out.content, "## Decisions\n- 2025-01-01: Ship on Fridays");
    assert_eq!(out.revision, 1);
    assert!(
        out.notice
            .as_deref()
            .is_some_and(|n| n.contains("rewritten")),
        "{:?}",
        out.notice
    );
    assert_eq!(
        seen.get(),
        Some((60, true)),
        "should ask for the target with the document at the end"
    );
    assert_eq!(
        block_on(s.history(&alice())).unwrap()[0].codes,
        ["size/hard-limit"],
        "the audit should show why"
    );
    let view = SaveOutcomeView::from(&out);
    assert_eq!(
        serde_json::to_value(&view).unwrap()["notice"],
        json!(out.notice)
    );
}

#[test]
fn a_rewrite_that_fails_or_does_not_qualify_is_refused() {
    let cases: Vec<(&str, Result<String, ()>)> = vec![
        ("error", Err(())),
        ("sentinel", Ok("NO_UPDATE".into())),
        ("empty", Ok(String::new())),
        ("chatter", Ok("Nothing to remember here.".into())),
        ("still too long", Ok(too_long())),
        (
            "personal heading in team",
            Ok("## Preferences\n- 2025-01-01: Dark".into()),
        ),
    ];
    for (name, reply) in cases {
        let host = MemoryHost::new();
        let s = MemoryStore::new(&host, small_limits())
            .unwrap()
            .with_rewrite(move |_req: RewriteRequest| {
                let reply = reply.clone();
                async move { reply }
            });
        let out = block_on(s.save(&team(), &too_long(), &base(0))).unwrap();
        assert_eq!(out.status, StoreStatus::Rejected, "{name}: should reject");
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.code.as_str() == "size/hard-limit"),
            "{name}: should keep the size error"
        );
        assert!(
            out.notice
                .as_deref()
                .is_some_and(|n| n.contains("nothing was saved")),
            "{name}: {:?}",
            out.notice
        );
        assert_eq!(host.puts(), 0, "{name}: should write nothing");
    }
    // No rewrite: rejected without a notice.
    let host = MemoryHost::new();
    let s = MemoryStore::new(&host, small_limits()).unwrap();
    let out = block_on(s.save(&alice(), &too_long(), &base(0))).unwrap();
    assert_eq!((out.status, out.notice), (StoreStatus::Rejected, None));
    // A rewrite is not called for other errors.
    let host = MemoryHost::new();
    let called = Rc::new(Cell::new(false));
    let c = Rc::clone(&called);
    let s = MemoryStore::new(&host, small_limits())
        .unwrap()
        .with_rewrite(move |_req: RewriteRequest| {
            c.set(true);
            async { Ok::<_, ()>(String::new()) }
        });
    let out = block_on(s.save(&alice(), "Nothing new.", &base(0))).unwrap();
    assert_eq!(out.status, StoreStatus::Rejected);
    assert!(!called.get(), "should only rewrite for size");
}

#[test]
fn views_use_camel_case_and_utf16_ranges() {
    let host = MemoryHost::new();
    let s = store(&host);
    let text = "😀 é 中\n## Facts\n- 2025-03-15: x";
    let out = save(&s, &alice(), text, 0);
    let view = serde_json::to_value(SaveOutcomeView::from(&out)).unwrap();
    assert_eq!(view["status"], "saved");
    assert_eq!(view["revision"], 1);
    assert_eq!(view["notice"], serde_json::Value::Null);
    assert_eq!(view["usage"]["utf8Bytes"], json!(out.usage.utf8_bytes));
    let d = &view["diagnostics"][0];
    assert_eq!(d["code"], "structure/preamble-dropped");
    assert_eq!(
        d["range"]["end"]["offset"],
        json!(6),
        "should count the emoji as two UTF-16 units"
    );
    let loaded = serde_json::to_value(block_on(s.load(&alice())).unwrap()).unwrap();
    assert_eq!(loaded["updatedBy"], "agent");
    assert_eq!(loaded["revision"], 1);
    assert!(loaded.get("updated_at").is_none());
    let entries = block_on(s.history(&alice())).unwrap();
    let audit = serde_json::to_value(memdoc::js::store::AuditEntryView::from(&entries[0])).unwrap();
    assert_eq!(
        audit,
        json!({"revision": 1, "at": "2025-06-01T00:00:00.000Z", "actor": "agent", "chars": 24, "delta": 24, "codes": ["structure/preamble-dropped"], "archived": []})
    );
    let conflict = save(&s, &alice(), text, 0);
    let view = serde_json::to_value(SaveOutcomeView::from(&conflict)).unwrap();
    assert_eq!(view["status"], "conflict");
    assert_eq!(view["diagnostics"], json!([]));
}

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

fn compacting(limits: Limits) -> StoreOptions {
    StoreOptions {
        limits,
        compact_over_limit: true,
        ..options()
    }
}

fn over_limit_team_memory() -> String {
    let mut s = String::from("## Team Decisions\n- 2025-01-01: Ship on Fridays");
    s.push_str("\n- 2025-01-02: Reviews need two approvals");
    s.push_str("\n\n## Current Priorities");
    for i in 1..=9 {
        s.push_str(&format!("\n- 2025-02-0{i}: Priority number {i}"));
    }
    s.push_str("\nraw notes stay");
    s
}

#[test]
fn compaction_fallback_saves_a_fitting_document_and_archives_what_it_removed() {
    let host = MemoryHost::new();
    let limits = Limits {
        soft: 150,
        hard: 200,
    };
    let s = MemoryStore::new(&host, compacting(limits)).unwrap();
    let update = over_limit_team_memory();
    assert!(
        update.chars().count() > 200,
        "the fixture should be over the limit"
    );
    let out = block_on(s.save(&team(), &update, &base(0))).unwrap();
    assert_eq!(
        out.status,
        StoreStatus::Saved,
        "should save the compacted document: {:?}",
        out.notice
    );
    assert!(
        out.content.chars().count() <= memdoc::store::rewrite_target(limits),
        "should fit the target with margin: {}",
        out.content.chars().count()
    );
    assert!(
        out.notice
            .as_deref()
            .is_some_and(|n| n.contains("compacted")),
        "should say it compacted: {:?}",
        out.notice
    );
    assert!(
        out.content.contains("Ship on Fridays"),
        "decisions are kept longest"
    );
    assert!(
        out.content.contains("raw notes stay"),
        "raw lines are never removed"
    );
    let history = block_on(s.history(&team())).unwrap();
    let archived = &history[0].archived;
    assert!(!archived.is_empty(), "should archive the removed entries");
    assert_eq!(history[0].codes[0], "size/hard-limit", "the audit says why");
    // Nothing is lost: every entry of the update is stored or archived.
    for entry in memdoc::parse(&update).entries() {
        let stored = out
            .content
            .contains(&format!("- {}: {}", entry.date, entry.text));
        let kept = archived
            .iter()
            .any(|a| a.date == entry.date && a.text == entry.text);
        assert!(
            stored ^ kept,
            "{entry:?} should be stored or archived, exactly once"
        );
    }
    assert!(
        archived.iter().all(|a| a.section == "Current Priorities"),
        "priorities go first: {archived:?}"
    );
    let view = serde_json::to_value(memdoc::js::store::AuditEntryView::from(&history[0])).unwrap();
    assert_eq!(
        view["archived"][0],
        json!({"section": archived[0].section, "date": archived[0].date, "text": archived[0].text}),
        "the JS view carries the archive"
    );
}

#[test]
fn compaction_fallback_is_off_unless_asked_and_never_saves_what_cannot_fit() {
    let host = MemoryHost::new();
    let limits = Limits {
        soft: 150,
        hard: 200,
    };
    let off = MemoryStore::new(
        &host,
        StoreOptions {
            limits,
            ..options()
        },
    )
    .unwrap();
    let out = block_on(off.save(&team(), &over_limit_team_memory(), &base(0))).unwrap();
    assert_eq!(
        out.status,
        StoreStatus::Rejected,
        "should not compact unless asked"
    );
    // Raw lines are never removed, so a document of raw lines cannot shrink.
    let on = MemoryStore::new(&host, compacting(limits)).unwrap();
    let raw = format!("## Notes\n{}", "a long raw line of notes\n".repeat(20));
    let out = block_on(on.save(&team(), &raw, &base(0))).unwrap();
    assert_eq!(
        out.status,
        StoreStatus::Rejected,
        "should reject what cannot fit"
    );
    assert!(
        out.notice
            .as_deref()
            .is_some_and(|n| n.contains("could not")),
        "should say compaction could not fit it: {:?}",
        out.notice
    );
    assert_eq!(host.puts(), 0, "should write nothing");
}

#[test]
fn a_refused_rewrite_falls_back_to_compaction_when_asked() {
    let host = MemoryHost::new();
    let limits = Limits {
        soft: 150,
        hard: 200,
    };
    let s = MemoryStore::new(&host, compacting(limits))
        .unwrap()
        .with_rewrite(|_req: RewriteRequest| async { Ok::<_, ()>("NO_UPDATE".to_owned()) });
    let out = block_on(s.save(&team(), &over_limit_team_memory(), &base(0))).unwrap();
    assert_eq!(out.status, StoreStatus::Saved, "{:?}", out.notice);
    assert!(out
        .notice
        .as_deref()
        .is_some_and(|n| n.contains("compacted")));
}

#[test]
fn timeout_ms_is_a_whole_number_of_milliseconds_or_absent() {
    let timeout = |v: serde_json::Value| {
        serde_json::from_value::<StoreOptionsInput>(v)
            .unwrap()
            .resolve::<()>()
            .map(|o| o.timeout_ms)
    };
    assert_eq!(timeout(json!({})), Ok(None));
    assert_eq!(timeout(json!({"timeoutMs": 1})), Ok(Some(1)));
    assert_eq!(
        timeout(json!({"timeoutMs": 2_147_483_647_u32})),
        Ok(Some(memdoc::store::MAX_TIMEOUT_MS))
    );
    for bad in [
        json!(0),
        json!(-5),
        json!(2.5),
        json!(2_147_483_648_u64),
        json!(1e300),
    ] {
        let err = timeout(json!({ "timeoutMs": bad })).unwrap_err();
        assert_eq!(err.code(), "options/invalid", "{bad}");
    }
}

#[test]
fn merge_on_conflict_never_saves_a_section_inside_the_other_sides_open_fence() {
    // The stored side (ours in the merge) opened a fence and never closed it;
    // the late edit adds a section. The saved merge keeps that section.
    let host = MemoryHost::new();
    let s = store(&host);
    let base_text = "## A\n- 2025-01-01: a";
    save(&s, &alice(), base_text, 0);
    save(
        &s,
        &alice(),
        &format!("{base_text}\n\n## Snippet\n```\nnpm i memdoc"),
        1,
    );
    let opts = StoreSaveOptions {
        on_conflict: OnConflict::Merge,
        ..base(1)
    };
    let late = format!("{base_text}\n\n## New\n- 2025-01-02: n");
    let out = block_on(s.save(&alice(), &late, &opts)).unwrap();
    assert_eq!((out.status, out.revision), (StoreStatus::Saved, 3));
    let stored = block_on(s.load(&alice())).unwrap().content;
    let stored = memdoc::parse(&stored);
    let titles: Vec<&str> = stored.sections.iter().map(|x| &*x.title).collect();
    assert_eq!(titles, ["A", "Snippet", "New"]);
    assert_eq!(stored.entries().count(), 2, "the late entry is an entry");
    assert_eq!(stored.unclosed_fence, None);
}

/// The records of `tests/fixtures/records.json` as the store wrote them
/// before each record's content went first: the same format, read by name.
#[test]
fn records_written_with_the_content_in_the_middle_read_and_save_on() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/records.json")).unwrap();
    let earlier = fixture["earlierRecords"].as_object().unwrap();
    let host = MemoryHost::new();
    for (key, value) in earlier {
        host.set(key, value.as_str().unwrap());
    }
    let head: serde_json::Value =
        serde_json::from_str(earlier["memdoc/team/eng"].as_str().unwrap()).unwrap();
    assert!(
        earlier["memdoc/team/eng"]
            .as_str()
            .unwrap()
            .contains(r#""revision":2,"content":"#),
        "the earlier head holds its content in the middle"
    );
    let s = MemoryStore::new(&host, options()).unwrap();
    let loaded = block_on(s.load(&team())).unwrap();
    assert_eq!(loaded.content, head["content"].as_str().unwrap());
    assert_eq!(loaded.revision, 2);
    let first: serde_json::Value = serde_json::from_str(
        earlier[head["snapshots"][1]["key"].as_str().unwrap()]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        block_on(s.revision(&team(), 1)).unwrap().as_deref(),
        first["content"].as_str()
    );
    let history = block_on(s.history(&team())).unwrap();
    assert_eq!(
        history
            .iter()
            .map(|a| (a.revision, a.chars))
            .collect::<Vec<_>>(),
        [(2, 148), (1, 39)]
    );
    let next = format!("{}\n- 2025-03-18: one more", loaded.content);
    let out = block_on(s.save(&team(), &next, &base(2))).unwrap();
    assert_eq!((out.status, out.revision), (StoreStatus::Saved, 3));
    let now = host.peek("memdoc/team/eng").unwrap().value;
    assert!(
        now.starts_with(&format!(
            r#"{{"content":{},"#,
            serde_json::to_string(&next).unwrap()
        )),
        "written content first: {now}"
    );
    assert_eq!(
        block_on(s.revision(&team(), 2)).unwrap(),
        Some(loaded.content)
    );
}

#[test]
fn the_records_are_the_fixtures_bytes() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/records.json")).unwrap();
    let times: Vec<String> = fixture["now"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect();
    let next = AtomicU64::new(0);
    let host = MemoryHost::new();
    let s = MemoryStore::new(
        &host,
        StoreOptions {
            now: Some(Box::new(move || {
                let i = next.fetch_add(1, Ordering::SeqCst);
                times[usize::try_from(i).unwrap()].clone()
            })),
            ..StoreOptions::default()
        },
    )
    .unwrap();
    for (i, save) in fixture["saves"].as_array().unwrap().iter().enumerate() {
        let opts = StoreSaveOptions {
            base_revision: i as u64,
            actor: save["actor"].as_str().map(str::to_owned),
            ..StoreSaveOptions::default()
        };
        let out = block_on(s.save(&team(), save["text"].as_str().unwrap(), &opts)).unwrap();
        assert_eq!(out.status, StoreStatus::Saved);
    }
    let mut stored: Vec<(String, String)> = host
        .keys()
        .into_iter()
        .map(|k| {
            let v = host.peek(&k).unwrap().value;
            (k, v)
        })
        .collect();
    stored.sort();
    let want: Vec<(String, String)> = fixture["records"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(
        stored,
        want,
        "{}",
        serde_json::to_string_pretty(
            &stored
                .iter()
                .cloned()
                .collect::<std::collections::BTreeMap<_, _>>()
        )
        .unwrap()
    );
}

/// A store keeps the last head it wrote or read, and the headings of its
/// content for the checks of the next save: every outcome must be what a
/// store that keeps nothing gives on the same stored data. One store saves
/// over host `a` throughout; each step runs again on host `b` through a new
/// store, and the two hosts must hold the same bytes after every step.
#[test]
fn a_store_that_keeps_its_last_head_saves_as_one_that_keeps_nothing() {
    fn fixed() -> StoreOptions {
        StoreOptions {
            now: Some(Box::new(|| "2025-06-01T00:00:00.000Z".to_owned())),
            ..StoreOptions::default()
        }
    }
    let (a, b) = (MemoryHost::new(), MemoryHost::new());
    let kept = MemoryStore::new(&a, fixed()).unwrap();
    let step = |text: &str, revision: u64| {
        let opts = base(revision);
        let one = block_on(kept.save(&team(), text, &opts)).unwrap();
        let fresh = MemoryStore::new(&b, fixed()).unwrap();
        let other = block_on(fresh.save(&team(), text, &opts)).unwrap();
        let codes = |o: &memdoc::store::SaveOutcome| -> Vec<&str> {
            o.diagnostics.iter().map(|d| d.code.as_str()).collect()
        };
        assert_eq!(
            (one.status, one.revision, &one.content, codes(&one)),
            (other.status, other.revision, &other.content, codes(&other)),
            "{text:?} over revision {revision}"
        );
        let bytes = |h: &MemoryHost| -> Vec<(String, String)> {
            h.keys()
                .into_iter()
                .map(|k| (k.clone(), h.peek(&k).unwrap().value))
                .collect()
        };
        assert_eq!(bytes(&a), bytes(&b));
        one
    };
    // A team memory that already has a personal heading (written by a
    // store that forbids none), then read by the keeping store.
    let seed = "## Preferences\n- 2025-01-01: tea\n\n## Facts\n- 2025-01-02: a";
    for h in [&a, &b] {
        let open = MemoryStore::new(
            h,
            StoreOptions {
                forbidden_team_headings: Vec::new(),
                ..fixed()
            },
        )
        .unwrap();
        assert_eq!(
            block_on(open.save(&team(), seed, &base(0)))
                .unwrap()
                .revision,
            1
        );
    }
    assert_eq!(block_on(kept.load(&team())).unwrap().revision, 1);
    // Kept: the personal heading it already had.
    let out = step(&format!("{seed}\n- 2025-01-03: b"), 1);
    assert_eq!((out.status, out.revision), (StoreStatus::Saved, 2));
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "scope/legacy-personal-heading"));
    // Refused: a new one.
    let with_new = format!("{seed}\n- 2025-01-03: b\n\n## Instructions\n- 2025-01-04: c");
    assert_eq!(step(&with_new, 2).status, StoreStatus::Rejected);
    // Saved without it; then it cannot come back, as the head changed.
    let without = "## Facts\n- 2025-01-02: a\n- 2025-01-03: b";
    assert_eq!(step(without, 2).revision, 3);
    assert_eq!(
        step(&format!("{seed}\n- 2025-01-03: b"), 3).status,
        StoreStatus::Rejected
    );
    // Another writer replaces the head behind the keeping store's back.
    for h in [&a, &b] {
        let other = MemoryStore::new(h, fixed()).unwrap();
        let out = block_on(other.save(&team(), &format!("{without}\n- 2025-01-05: d"), &base(3)));
        assert_eq!(out.unwrap().revision, 4);
    }
    assert_eq!(
        step(&format!("{without}\n- 2025-01-06: e"), 3).status,
        StoreStatus::Conflict
    );
    assert_eq!(
        step(&format!("{without}\n- 2025-01-05: d\n- 2025-01-06: e"), 4).revision,
        5
    );
    assert_eq!(step("## Facts\n- 2025-01-02: a", 5).revision, 6);
}

/// A head kept for one memory is never taken for another's: a host that
/// answers with the first memory's exact bytes at the second's key gives
/// `store/corrupt-record`, as it does to a store that kept nothing.
#[test]
fn a_kept_head_is_not_another_memorys() {
    let host = MemoryHost::new();
    let s = store(&host);
    assert_eq!(save(&s, &team(), V1, 0).revision, 1);
    let value = host.peek("memdoc/team/eng").unwrap().value;
    host.set("memdoc/user/alice", &value);
    let error = block_on(s.load(&alice())).unwrap_err();
    assert_eq!(error.code(), "store/corrupt-record");
    assert_eq!(block_on(s.load(&team())).unwrap().content, V1);
}
