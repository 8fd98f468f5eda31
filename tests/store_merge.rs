//! A `merge` save whose base is stale: the store merges once, with what it
//! holds now as ours and the caller's edit as theirs; a conflicting merge
//! comes back with its conflicts and the merged text with markers, exactly
//! as `merge(base, stored, edit)` gives them; a clean merge that loses the
//! race to another save is merged again by the store.
#![cfg(not(target_arch = "wasm32"))]

use memdoc::store::{
    block_on, MemoryHost, MemoryRef, MemoryStore, OnConflict, StoreOptions, StoreSaveOptions,
    StoreStatus,
};
use memdoc::{merge, merge_marked, Scope};

fn options() -> StoreOptions {
    StoreOptions {
        now: Some(Box::new(|| "2025-06-01T00:00:00.000Z".to_owned())),
        ..StoreOptions::default()
    }
}

fn store(host: &MemoryHost) -> MemoryStore<&MemoryHost> {
    MemoryStore::new(host, options()).expect("default options are valid")
}

fn notes() -> MemoryRef {
    MemoryRef::new::<()>(Scope::Team, "notes").expect("valid id")
}

fn merging(base_revision: u64) -> StoreSaveOptions {
    StoreSaveOptions {
        base_revision,
        actor: Some("alice".to_owned()),
        on_conflict: OnConflict::Merge,
        ..StoreSaveOptions::default()
    }
}

fn plain(base_revision: u64) -> StoreSaveOptions {
    StoreSaveOptions {
        base_revision,
        actor: Some("bob".to_owned()),
        ..StoreSaveOptions::default()
    }
}

/// A store whose memory holds `BASE` at revision 1 and `STORED` at 2.
fn saved_twice(host: &MemoryHost) -> MemoryStore<&MemoryHost> {
    let s = store(host);
    block_on(s.save(&notes(), BASE, &plain(0))).unwrap();
    block_on(s.save(&notes(), STORED, &plain(1))).unwrap();
    s
}

const BASE: &str = "## Notes\nmeet on Monday\n\n## Facts\n- 2025-03-01: Office in Oslo";
const STORED: &str = "## Notes\nmeet on Tuesday\n\n## Facts\n- 2025-03-01: Office in Oslo";
const EDIT: &str =
    "## Notes\nmeet on Friday\n\n## Facts\n- 2025-03-01: Office in Oslo\n- 2025-03-02: Has a dog";

#[test]
fn a_conflicting_merge_returns_the_conflicts_of_merge_base_stored_edit() {
    let host = MemoryHost::new();
    let s = saved_twice(&host);
    let puts = host.puts();
    let out = block_on(s.save(&notes(), EDIT, &merging(1))).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Conflict, 2, STORED),
        "should hand back what is stored"
    );
    assert_eq!(host.puts(), puts, "should write nothing");
    let found = out
        .merge
        .expect("a conflicting merge should say what conflicts");
    let want = merge(BASE, STORED, EDIT);
    assert_eq!(
        found.conflicts, want.conflicts,
        "ours should be what is stored"
    );
    assert_eq!((found.base.as_str(), found.theirs.as_str()), (BASE, EDIT));
    assert_eq!(
        found.merged,
        "## Notes\n<<<<<<< stored (revision 2)\nmeet on Tuesday\n=======\nmeet on Friday\n>>>>>>> your edit (from revision 1)\n\n\
         ## Facts\n- 2025-03-01: Office in Oslo\n- 2025-03-02: Has a dog",
        "should mark the conflict and merge the rest"
    );
    assert_eq!(
        Some(found.merged),
        merge_marked(
            BASE,
            STORED,
            EDIT,
            ["stored (revision 2)", "your edit (from revision 1)"]
        )
        .1,
        "should be the engine's marked merge"
    );
}

#[test]
fn a_rejecting_save_has_no_merge() {
    let host = MemoryHost::new();
    let s = saved_twice(&host);
    let out = block_on(s.save(&notes(), EDIT, &plain(1))).unwrap();
    assert_eq!((out.status, out.merge), (StoreStatus::Conflict, None));
}

#[test]
fn a_removed_section_and_a_title_conflict_are_marked_whole() {
    let base = "## Notes\nmeet on Monday\n\n## Old\nkept line";
    let stored = "## notes!\nmeet on Monday";
    let edit = "## Notes?\nmeet on Monday\n\n## Old\nkept line, edited";
    let (result, marked) = merge_marked(base, stored, edit, ["ours", "theirs"]);
    assert_eq!(result.conflicts.len(), 2, "{:?}", result.conflicts);
    assert_eq!(
        marked.as_deref(),
        Some(
            "<<<<<<< ours\n## notes!\n=======\n## Notes?\n>>>>>>> theirs\nmeet on Monday\n\n\
             <<<<<<< ours\n=======\n## Old\nkept line, edited\n>>>>>>> theirs"
        )
    );
}

#[test]
fn a_clean_merge_that_loses_the_race_is_merged_again_by_the_store() {
    let host = MemoryHost::new();
    let s = saved_twice(&host);
    let edit = "## Notes\nmeet on Monday\n\n## Facts\n- 2025-03-01: Office in Oslo\n- 2025-03-02: Has a dog";
    let calls = host.calls();
    // The merge reads the head and the base revision, then writes its
    // snapshot and the head: just before the head put another writer adds
    // a section.
    let racer =
        "## Notes\nmeet on Tuesday\n\n## Facts\n- 2025-03-01: Office in Oslo\n\n## Later\nnew";
    host.before_call(calls + 4, move |h| {
        let other = MemoryStore::new(h, options()).unwrap();
        let out = block_on(other.save(&notes(), racer, &plain(2))).unwrap();
        assert_eq!((out.status, out.revision), (StoreStatus::Saved, 3));
    });
    let out = block_on(s.save(&notes(), edit, &merging(1))).unwrap();
    assert_eq!(
        (out.status, out.revision),
        (StoreStatus::Saved, 4),
        "should merge again onto the revision that won: {:?}",
        out.notice
    );
    assert_eq!(
        out.content,
        "## Notes\nmeet on Tuesday\n\n## Facts\n- 2025-03-01: Office in Oslo\n- 2025-03-02: Has a dog\n\n## Later\nnew"
    );
}

#[test]
fn a_merge_that_conflicts_after_losing_the_race_reports_the_winner() {
    let host = MemoryHost::new();
    let s = saved_twice(&host);
    let edit = "## Notes\nmeet on Wednesday\n\n## Facts\n- 2025-03-01: Office in Oslo\n- 2025-03-02: Has a dog";
    let calls = host.calls();
    let racer = "## Notes\nmeet on Thursday\n\n## Facts\n- 2025-03-01: Office in Oslo";
    host.before_call(calls + 3, move |h| {
        let other = MemoryStore::new(h, options()).unwrap();
        block_on(other.save(&notes(), racer, &plain(2))).unwrap();
    });
    // Edited from revision 2 (current when it was read): no merge at first,
    // a merge once the race is lost.
    let out = block_on(s.save(&notes(), edit, &merging(2))).unwrap();
    assert_eq!(
        (out.status, out.revision, out.content.as_str()),
        (StoreStatus::Conflict, 3, racer)
    );
    let found = out.merge.expect("the conflicting merge should be reported");
    assert_eq!(found.conflicts, merge(STORED, racer, edit).conflicts);
}
