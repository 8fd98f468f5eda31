//! Store options and their coded errors, the timeout included.

use super::*;

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
