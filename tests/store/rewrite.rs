//! The hard limit: a save over it refused, an accepted rewrite saved with a
//! notice, a rewrite that fails or does not qualify refused.

use super::*;

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
