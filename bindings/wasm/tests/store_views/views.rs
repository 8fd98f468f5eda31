//! The views of the store's outcomes, and a memory's reference as
//! JavaScript passes it.

use super::*;

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
    let audit = serde_json::to_value(AuditEntryView::from(&entries[0])).unwrap();
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
fn a_views_notice_and_archive_are_the_outcomes() {
    let host = MemoryHost::new();
    let s = store(&host);
    let mut out = save(&s, &alice(), V1, 0);
    out.notice = Some("rewritten to fit".into());
    let view = serde_json::to_value(SaveOutcomeView::from(&out)).unwrap();
    assert_eq!(view["notice"], json!(out.notice));
    let mut entry = block_on(s.history(&alice())).unwrap().remove(0);
    entry.archived = vec![ArchivedEntry {
        section: "Current Priorities".into(),
        date: "2025-03-15".into(),
        text: "Ship it".into(),
    }];
    let view = serde_json::to_value(AuditEntryView::from(&entry)).unwrap();
    assert_eq!(
        view["archived"],
        json!([{"section": "Current Priorities", "date": "2025-03-15", "text": "Ship it"}]),
        "the JS view carries the archive"
    );
}

#[test]
fn a_memory_ref_input_is_checked_as_memory_ref_new_checks() {
    for bad in ["", "../alice", &"a".repeat(129)] {
        let input = MemoryRefInput {
            scope: "user".into(),
            id: bad.into(),
        };
        assert_eq!(
            input.resolve::<()>().unwrap_err().code(),
            "store/invalid-id",
            "should reject id {bad:?}"
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
}

#[test]
fn a_merge_saves_view_carries_the_conflicts_with_ranges_in_each_side() {
    let host = MemoryHost::new();
    let s = store(&host);
    let stored = "## Facts\n- 2025-03-15: Lives in Portland";
    let edit = "## Facts\n- 2025-03-15: Lives in Boston";
    save(&s, &alice(), V1, 0);
    save(&s, &alice(), stored, 1);
    let merging = StoreSaveOptions {
        on_conflict: OnConflict::Merge,
        ..base(1)
    };
    let out = block_on(s.save(&alice(), edit, &merging)).unwrap();
    let view = serde_json::to_value(SaveOutcomeView::from(&out)).unwrap();
    let want = serde_json::to_value(MergeResultView::new(
        &merge(V1, stored, edit),
        V1,
        stored,
        edit,
    ))
    .unwrap();
    assert!(!want["conflicts"].as_array().unwrap().is_empty());
    assert_eq!(
        view["conflicts"], want["conflicts"],
        "should match merge() in JS terms"
    );
    assert_eq!(
        view["conflicts"][0]["ours"]["lines"][0],
        "- 2025-03-15: Lives in Portland"
    );
    assert!(view["merged"]
        .as_str()
        .is_some_and(|m| m.contains("<<<<<<< stored (revision 2)")));
    let clean = save(&s, &alice(), V3, 2);
    let view = serde_json::to_value(SaveOutcomeView::from(&clean)).unwrap();
    assert_eq!(
        (&view["conflicts"], &view["merged"]),
        (&json!([]), &serde_json::Value::Null),
        "other outcomes have no conflicts"
    );
}
