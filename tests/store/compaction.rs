//! The compaction fallback: what it saves and archives, and when it is off.

use super::*;

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
