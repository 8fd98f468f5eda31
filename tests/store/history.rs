//! History and revert, ids and scopes, and memories isolated from each other.

use super::*;

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
    }
    assert!(MemoryRef::new::<()>(Scope::Team, "eng.team@x:1").is_ok());
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
