//! A memory's records carried whole: export, import (its checks, and a
//! crash at each of its steps), purge (a head the store refuses too) and
//! the stored revision of such a head.

use memdoc::store::{StoredRecords, StoredSnapshot};

use super::*;

/// `team()` saved three times over `host`, and its records as exported.
fn three_revisions(host: &MemoryHost) -> StoredRecords {
    let s = store(host);
    save(&s, &team(), V1, 0);
    save(&s, &team(), V2, 1);
    save(&s, &team(), V3, 2);
    block_on(s.export_records(&team()))
        .expect("export should not fail")
        .expect("there are records")
}

/// What `host` holds, key by key.
fn contents(host: &MemoryHost) -> Vec<(String, String)> {
    host.keys()
        .into_iter()
        .map(|k| {
            let v = host.peek(&k).expect("listed").value;
            (k, v)
        })
        .collect()
}

/// Every revision of `team()` over `host`, as the store reads them.
fn readable(host: &MemoryHost) -> Result<Vec<Option<String>>, Err> {
    let s = store(host);
    let loaded = block_on(s.load(&team()))?;
    (1..=loaded.revision)
        .map(|n| block_on(s.revision(&team(), n)))
        .collect()
}

#[test]
fn export_gives_the_head_and_its_snapshots_as_stored_or_none() {
    let host = MemoryHost::new();
    let s = store(&host);
    assert_eq!(
        block_on(s.export_records(&team())).unwrap(),
        None,
        "nothing stored"
    );
    let records = three_revisions(&host);
    assert_eq!(
        records.head,
        host.peek("memdoc/team/eng").unwrap().value,
        "the head as stored"
    );
    assert_eq!(
        records
            .snapshots
            .iter()
            .map(|s| s.revision)
            .collect::<Vec<_>>(),
        [3, 2, 1],
        "newest first"
    );
    for snapshot in &records.snapshots {
        assert!(
            snapshot.key.starts_with("memdoc/team/eng/rev/"),
            "{}",
            snapshot.key
        );
        assert_eq!(
            snapshot.value,
            host.peek(&snapshot.key).unwrap().value,
            "as stored"
        );
    }
    // A missing snapshot is left out (an import then refuses the records).
    block_on(memdoc::store::Host::delete(
        &host,
        &records.snapshots[1].key,
    ))
    .unwrap();
    let fewer = block_on(s.export_records(&team())).unwrap().unwrap();
    assert_eq!(
        fewer
            .snapshots
            .iter()
            .map(|s| s.revision)
            .collect::<Vec<_>>(),
        [3, 1]
    );
    // A head the store refuses is an error, as for load.
    host.set("memdoc/team/eng", "not json");
    let err = block_on(s.export_records(&team())).unwrap_err();
    assert_eq!(err.code(), "store/corrupt-record");
    assert_eq!(err.key(), Some("memdoc/team/eng"));
}

#[test]
fn an_import_writes_the_very_records_and_the_memory_reads_as_before() {
    let from = MemoryHost::new();
    let records = three_revisions(&from);
    let to = MemoryHost::new();
    let s = store(&to);
    assert_eq!(
        block_on(s.import_records(&team(), &records)).unwrap(),
        3,
        "the head's revision"
    );
    assert_eq!(contents(&to), contents(&from), "the same keys and bytes");
    assert_eq!(
        readable(&to).unwrap(),
        [Some(V1.into()), Some(V2.into()), Some(V3.into())]
    );
    assert_eq!(
        block_on(s.export_records(&team())).unwrap(),
        Some(records.clone())
    );
    // The imported memory saves on from its revision.
    assert_eq!(
        save(&s, &team(), &format!("{V3}\n- 2025-03-18: Moved"), 3).revision,
        4
    );
    // Importing the same records again replaces the head: the memory is as exported.
    assert_eq!(block_on(s.import_records(&team(), &records)).unwrap(), 3);
    assert_eq!(block_on(s.load(&team())).unwrap().content, V3);
}

#[test]
fn records_that_are_not_exactly_a_head_of_the_memory_and_its_snapshots_are_refused_writing_nothing()
{
    let from = MemoryHost::new();
    let records = three_revisions(&from);
    let head_key = "memdoc/team/eng".to_owned();
    let [newest, middle, oldest] = [0, 1, 2].map(|i| records.snapshots[i].clone());
    let with = |snapshots: Vec<StoredSnapshot>| StoredRecords {
        head: records.head.clone(),
        snapshots,
    };
    let mut other_format: serde_json::Value = serde_json::from_str(&records.head).unwrap();
    other_format["format"] = json!("memdoc/9");
    let mut wrong_content: serde_json::Value = serde_json::from_str(&middle.value).unwrap();
    wrong_content["content"] = json!(7);
    let cases: Vec<(&str, MemoryRef, StoredRecords, &str, String)> = vec![
        (
            "the head of another memory",
            MemoryRef::new::<()>(Scope::Team, "ops").unwrap(),
            records.clone(),
            "store/corrupt-record",
            "memdoc/team/ops".to_owned(),
        ),
        (
            "a head of another format",
            team(),
            StoredRecords {
                head: other_format.to_string(),
                snapshots: records.snapshots.clone(),
            },
            "store/unsupported-format",
            head_key.clone(),
        ),
        (
            "a snapshot missing",
            team(),
            with(vec![newest.clone(), oldest.clone()]),
            "store/corrupt-record",
            middle.key.clone(),
        ),
        (
            "a snapshot given twice",
            team(),
            with(vec![
                newest.clone(),
                middle.clone(),
                middle.clone(),
                oldest.clone(),
            ]),
            "store/corrupt-record",
            middle.key.clone(),
        ),
        (
            "a snapshot the head names for another revision",
            team(),
            with(vec![
                newest.clone(),
                StoredSnapshot {
                    revision: 1,
                    ..middle.clone()
                },
                oldest.clone(),
            ]),
            "store/corrupt-record",
            middle.key.clone(),
        ),
        (
            "a snapshot the head does not name",
            team(),
            with(vec![
                newest.clone(),
                middle.clone(),
                oldest.clone(),
                StoredSnapshot {
                    key: "memdoc/team/eng/rev/4/x".to_owned(),
                    revision: 4,
                    value: oldest.value.clone(),
                },
            ]),
            "store/corrupt-record",
            "memdoc/team/eng/rev/4/x".to_owned(),
        ),
        (
            "a snapshot the store does not read",
            team(),
            with(vec![
                newest.clone(),
                StoredSnapshot {
                    value: wrong_content.to_string(),
                    ..middle.clone()
                },
                oldest.clone(),
            ]),
            "store/corrupt-record",
            middle.key.clone(),
        ),
        (
            "a snapshot holding another revision",
            team(),
            with(vec![
                newest.clone(),
                StoredSnapshot {
                    value: oldest.value.clone(),
                    ..middle.clone()
                },
                oldest.clone(),
            ]),
            "store/corrupt-record",
            middle.key.clone(),
        ),
    ];
    for (what, r, records, code, key) in cases {
        let to = MemoryHost::new();
        let err = block_on(store(&to).import_records(&r, &records)).unwrap_err();
        assert_eq!(
            (err.code(), err.key()),
            (code, Some(key.as_str())),
            "{what}: {err}"
        );
        assert_eq!(to.puts(), 0, "{what}: nothing written");
    }
}

#[test]
fn an_import_replaces_what_an_abandoned_one_left_and_keeps_what_is_already_right() {
    let from = MemoryHost::new();
    let records = three_revisions(&from);
    let to = MemoryHost::new();
    // An abandoned import of another export: its head and a snapshot at a
    // key this one uses too, holding other bytes; another snapshot as it is.
    to.set("memdoc/team/eng", &records.snapshots[2].value);
    to.set(&records.snapshots[0].key, "left over");
    to.set(&records.snapshots[1].key, &records.snapshots[1].value);
    let puts = to.puts();
    assert_eq!(
        block_on(store(&to).import_records(&team(), &records)).unwrap(),
        3
    );
    assert_eq!(contents(&to), contents(&from));
    assert_eq!(
        to.puts() - puts,
        3,
        "the head and the two snapshots that differed"
    );
}

#[test]
fn an_import_keeps_losing_to_another_writer_only_a_few_times() {
    let from = MemoryHost::new();
    let records = three_revisions(&from);
    let to = MemoryHost::new();
    let s = store(&to);
    // Before every put of the head, another writer changes it.
    let first = to.calls() + 2 * 3 + 1;
    for attempt in 0..3 {
        to.before_call(first + 2 * attempt + 1, move |h| {
            h.set("memdoc/team/eng", &format!("another writer {attempt}"));
        });
    }
    let err = block_on(s.import_records(&team(), &records)).unwrap_err();
    assert_eq!(
        (err.code(), err.key()),
        ("store/import-conflict", Some("memdoc/team/eng"))
    );
    assert_eq!(
        to.peek("memdoc/team/eng").unwrap().value,
        "another writer 2",
        "never overwritten blindly"
    );
}

#[test]
fn an_import_that_crashes_at_any_step_leaves_no_head_or_the_whole_memory_and_runs_again() {
    let from = MemoryHost::new();
    let records = three_revisions(&from);
    let clean = MemoryHost::new();
    block_on(store(&clean).import_records(&team(), &records)).unwrap();
    let steps = clean.calls();
    assert_eq!(steps, 8, "a get and a put per record");
    for fault in [Fault::Fail, Fault::FailAfterWrite, Fault::Malformed] {
        for call in 1..=steps {
            let to = MemoryHost::new();
            to.inject(call, fault);
            let outcome = block_on(store(&to).import_records(&team(), &records));
            to.clear_faults();
            match readable(&to) {
                Ok(revisions) if revisions.is_empty() => {
                    assert!(
                        outcome.is_err(),
                        "{fault:?} at {call}: an import that wrote no head failed"
                    );
                }
                Ok(revisions) => assert_eq!(
                    revisions,
                    [Some(V1.into()), Some(V2.into()), Some(V3.into())],
                    "{fault:?} at {call}: a head is there only with all its snapshots"
                ),
                Err(e) => panic!("{fault:?} at {call}: the memory does not read: {e}"),
            }
            if let Err(e) = &outcome {
                assert_eq!(e.code(), "store/host-failed", "{fault:?} at {call}");
            }
            assert_eq!(
                block_on(store(&to).import_records(&team(), &records)).unwrap(),
                3
            );
            assert_eq!(
                contents(&to),
                contents(&from),
                "{fault:?} at {call}: run again, whole"
            );
        }
    }
}

#[test]
fn purge_deletes_the_head_first_then_its_own_snapshots_even_of_a_head_the_store_refuses() {
    let host = MemoryHost::new();
    let s = store(&host);
    assert!(!block_on(s.purge(&team())).unwrap(), "nothing stored");
    three_revisions(&host);
    save(&s, &alice(), V1, 0);
    assert!(block_on(s.purge(&team())).unwrap());
    assert!(
        host.keys()
            .iter()
            .all(|k| !k.starts_with("memdoc/team/eng")),
        "{:?}",
        host.keys()
    );
    assert_eq!(
        block_on(s.load(&alice())).unwrap().content,
        V1,
        "another memory untouched"
    );
    // A head the store refuses (an unknown field), naming its own snapshot
    // and a key of another memory: the head and its own snapshot go.
    let head = json!({
        "format": "memdoc/1", "kind": "head", "scope": "team", "id": "eng", "revision": 2,
        "extra": true,
        "snapshots": [{ "revision": 2, "key": "memdoc/team/eng/rev/2/a" }, { "revision": 1, "key": "memdoc/user/alice" }],
    });
    host.set("memdoc/team/eng", &head.to_string());
    host.set("memdoc/team/eng/rev/2/a", "x");
    assert_eq!(
        block_on(s.load(&team())).unwrap_err().code(),
        "store/corrupt-record"
    );
    assert!(block_on(s.purge(&team())).unwrap());
    assert_eq!(host.peek("memdoc/team/eng"), None);
    assert_eq!(host.peek("memdoc/team/eng/rev/2/a"), None);
    assert_eq!(
        block_on(s.load(&alice())).unwrap().content,
        V1,
        "a key outside the memory is never deleted"
    );
    // A head that is not JSON at all is deleted too.
    host.set("memdoc/team/eng", "not json");
    assert!(block_on(s.purge(&team())).unwrap());
    assert_eq!(host.peek("memdoc/team/eng"), None);
    // A host that cannot delete keeps every record.
    three_revisions(&host);
    let before = contents(&host);
    host.set_delete_supported(false);
    assert!(block_on(s.purge(&team())).unwrap());
    assert_eq!(contents(&host), before);
}

#[test]
fn a_purge_that_fails_midway_never_leaves_a_head_naming_a_missing_snapshot() {
    let clean = MemoryHost::new();
    three_revisions(&clean);
    let calls = clean.calls();
    block_on(store(&clean).purge(&team())).unwrap();
    let steps = clean.calls() - calls;
    assert_eq!(steps, 5, "a get, then a delete per record");
    for call in 1..=steps {
        let host = MemoryHost::new();
        three_revisions(&host);
        host.inject(host.calls() + call, Fault::Fail);
        assert_eq!(
            block_on(store(&host).purge(&team())).unwrap_err().code(),
            "store/host-failed"
        );
        host.clear_faults();
        let revisions = readable(&host).unwrap();
        assert!(
            revisions.is_empty() || revisions.len() == 3,
            "at {call}: {revisions:?}"
        );
        block_on(store(&host).purge(&team())).unwrap();
        assert_eq!(
            block_on(store(&host).load(&team())).unwrap().revision,
            0,
            "at {call}"
        );
        // Past the head's delete, what is left are unread snapshots.
        assert!(
            host.keys()
                .iter()
                .all(|k| k.starts_with("memdoc/team/eng/rev/")),
            "at {call}: {:?}",
            host.keys()
        );
    }
}

#[test]
fn the_stored_revision_of_a_head_is_read_without_the_stores_checks() {
    let host = MemoryHost::new();
    let s = store(&host);
    assert_eq!(
        block_on(s.stored_revision(&team())).unwrap(),
        0,
        "nothing stored"
    );
    three_revisions(&host);
    assert_eq!(block_on(s.stored_revision(&team())).unwrap(), 3);
    host.set(
        "memdoc/team/eng",
        r#"{"format":"memdoc/1","revision":7,"extra":1}"#,
    );
    assert_eq!(
        block_on(s.load(&team())).unwrap_err().code(),
        "store/corrupt-record"
    );
    assert_eq!(
        block_on(s.stored_revision(&team())).unwrap(),
        7,
        "a head the store refuses"
    );
    for unreadable in [
        "not json",
        r#"{"revision":1.5}"#,
        r#"{"revision":"3"}"#,
        "[]",
    ] {
        host.set("memdoc/team/eng", unreadable);
        assert_eq!(
            block_on(s.stored_revision(&team())).unwrap(),
            0,
            "{unreadable}"
        );
    }
    host.inject(host.calls() + 1, Fault::Fail);
    assert_eq!(
        block_on(s.stored_revision(&team())).unwrap_err().code(),
        "store/host-failed"
    );
}

#[test]
fn the_head_key_is_the_stores_own() {
    let host = MemoryHost::new();
    assert_eq!(store(&host).head_key(&team()), "memdoc/team/eng");
    let tasks = MemoryStore::new(
        &host,
        StoreOptions {
            key_prefix: "memdoc-task".to_owned(),
            ..options()
        },
    )
    .unwrap();
    assert_eq!(tasks.head_key(&team()), "memdoc-task/team/eng");
}
