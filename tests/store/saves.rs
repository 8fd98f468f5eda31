//! Saving: first saves, no-ops, rejections, allowed erases, stale bases and
//! compare-and-swap, merging on conflict.

use super::*;

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
