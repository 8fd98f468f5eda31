//! The record format: corrupt and foreign records, the head's shape, a
//! custom prefix, the fixtures' bytes, and records of earlier layouts.

use super::*;

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

/// The records of `tests/fixtures/records.json` as the store wrote them
/// before each record's content went first: the same format, read by name.
#[test]
fn records_written_with_the_content_in_the_middle_read_and_save_on() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/records.json")).unwrap();
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
        serde_json::from_str(include_str!("../fixtures/records.json")).unwrap();
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
