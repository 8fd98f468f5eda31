//! The options as JavaScript passes them ([`OptionsInput`] and the other
//! `*Input` types): loosely typed options -> checked options or a coded
//! error.

use memdoc::{
    CompactOptions, Error, ExpireOptions, ExpiryPolicy, Limits, RecallOptions, Scope,
    DEFAULT_FORBIDDEN_TEAM_HEADINGS, DEFAULT_HARD_LIMIT, DEFAULT_SOFT_LIMIT,
};
use memdoc_wasm::js::error::BoundaryError;
use memdoc_wasm::js::input::{
    CompactOptionsInput, ExpireOptionsInput, ExpiryPolicyInput, LimitsInput, OptionsInput,
    RecallOptionsInput, RecallWeightsInput, SweepOptionsInput,
};

fn input(json: &str) -> OptionsInput {
    serde_json::from_str(json).expect("should deserialize")
}

fn limits_code(soft: Option<f64>, hard: Option<f64>) -> Result<Limits, &'static str> {
    LimitsInput { soft, hard }.resolve().map_err(|e| e.code())
}

#[test]
fn defaults() {
    let o = input("{}");
    let v = o
        .clone()
        .validate_options()
        .expect("should accept empty options");
    assert_eq!(v.scope, Scope::User, "should default to user scope");
    assert_eq!(v.previous, None, "should have no previous");
    assert_eq!(
        (v.limits.soft, v.limits.hard),
        (DEFAULT_SOFT_LIMIT, DEFAULT_HARD_LIMIT),
        "should use the default limits"
    );
    assert_eq!(
        (DEFAULT_SOFT_LIMIT, DEFAULT_HARD_LIMIT),
        (18_000, 25_000),
        "should default to 18,000 and 25,000"
    );
    assert_eq!(
        v.forbidden_team_headings,
        DEFAULT_FORBIDDEN_TEAM_HEADINGS.to_vec(),
        "should use the four personal headings"
    );
    let s = o
        .clone()
        .save_options()
        .expect("should accept empty options");
    assert!(!s.allow_erase, "should not allow erasing by default");
    let i = o.inject_options().expect("should accept empty options");
    assert_eq!(
        (i.scope, i.user_name),
        (Scope::User, None),
        "should default inject options"
    );
    let nulls = input(
        r#"{"scope":null,"previous":null,"limits":null,"forbiddenTeamHeadings":null,"allowErase":null,"userName":null}"#,
    );
    assert_eq!(
        nulls.validate_options().expect("should accept nulls"),
        v,
        "should treat null as missing"
    );
}

#[test]
fn reads_camel_case_fields() {
    let o = input(
        r###"{"scope":"team","previous":"## A","limits":{"soft":10,"hard":20},"forbiddenTeamHeadings":["Secrets"],"allowErase":true,"userName":"Ada L"}"###,
    );
    let s = o.clone().save_options().expect("should accept");
    assert_eq!(s.validate.scope, Scope::Team, "should read scope");
    assert_eq!(
        s.validate.previous.as_deref(),
        Some("## A"),
        "should read previous"
    );
    assert_eq!(
        s.validate.limits,
        Limits { soft: 10, hard: 20 },
        "should read limits"
    );
    assert_eq!(
        s.validate.forbidden_team_headings,
        ["Secrets"],
        "should read forbidden headings"
    );
    assert!(s.allow_erase, "should read allowErase");
    assert_eq!(
        o.inject_options()
            .expect("should accept")
            .user_name
            .as_deref(),
        Some("Ada L"),
        "should read userName"
    );
}

#[test]
fn partial_limits_fill_in_defaults() {
    assert_eq!(
        limits_code(Some(100.0), None),
        Ok(Limits {
            soft: 100,
            hard: 25_000
        }),
        "should default hard"
    );
    assert_eq!(
        limits_code(None, Some(20_000.0)),
        Ok(Limits {
            soft: 18_000,
            hard: 20_000
        }),
        "should default soft"
    );
    assert_eq!(
        limits_code(Some(5.0), Some(5.0)),
        Ok(Limits { soft: 5, hard: 5 }),
        "should accept soft == hard"
    );
    assert_eq!(
        limits_code(Some(1.0), Some(1e9)),
        Ok(Limits {
            soft: 1,
            hard: 1_000_000_000
        }),
        "should accept large whole numbers"
    );
}

#[test]
fn invalid_limits_are_coded_errors() {
    for (soft, hard, why) in [
        (Some(-1.0), None, "negative soft"),
        (None, Some(-25_000.0), "negative hard"),
        (Some(0.0), None, "zero soft"),
        (None, Some(0.0), "zero hard"),
        (Some(-0.0), None, "negative zero"),
        (Some(10.5), None, "fractional soft"),
        (None, Some(0.5), "fractional hard"),
        (Some(f64::NAN), None, "NaN"),
        (None, Some(f64::INFINITY), "infinity"),
        (Some(1e300), Some(1e300), "absurdly large"),
        (Some(30_000.0), None, "soft above the default hard"),
        (Some(20.0), Some(10.0), "soft > hard"),
    ] {
        assert_eq!(
            limits_code(soft, hard),
            Err("options/invalid-limits"),
            "should reject {why}"
        );
    }
    assert_eq!(
        Limits::new(0, 5).map_err(|e| e.code()),
        Err("options/invalid-limits"),
        "should reject zero in Limits::new"
    );
    assert_eq!(
        Limits::new(6, 5).map_err(|e| e.code()),
        Err("options/invalid-limits"),
        "should reject soft > hard in Limits::new"
    );
    let o = input(r#"{"limits":{"soft":-1}}"#);
    assert_eq!(
        o.clone().validate_options().map_err(|e| e.code()),
        Err("options/invalid-limits"),
        "should fail validate options"
    );
    assert_eq!(
        o.clone().save_options().map_err(|e| e.code()),
        Err("options/invalid-limits"),
        "should fail save options"
    );
    assert_eq!(
        o.inject_options().map_err(|e| e.code()),
        Err("options/invalid-limits"),
        "should fail inject options"
    );
}

#[test]
fn unknown_limit_fields_are_rejected() {
    let got: Result<OptionsInput, _> = serde_json::from_str(r#"{"limits":{"sofft":1}}"#);
    assert!(got.is_err(), "should not silently ignore a misspelt limit");
}

#[test]
fn invalid_scope_is_a_coded_error() {
    for scope in ["", "User", "TEAM", " team", "team ", "org", "users"] {
        let o = OptionsInput {
            scope: Some(scope.to_owned()),
            ..OptionsInput::default()
        };
        assert_eq!(
            o.scope().map_err(|e| e.code()),
            Err("options/invalid-scope"),
            "should reject {scope:?}"
        );
        assert_eq!(
            o.clone().validate_options().map_err(|e| e.code()),
            Err("options/invalid-scope"),
            "should fail validate options for {scope:?}"
        );
        assert_eq!(
            o.inject_options().map_err(|e| e.code()),
            Err("options/invalid-scope"),
            "should fail inject options for {scope:?}"
        );
    }
    assert_eq!(
        "team".parse::<Scope>(),
        Ok(Scope::Team),
        "should parse team"
    );
    assert_eq!(
        "user".parse::<Scope>(),
        Ok(Scope::User),
        "should parse user"
    );
    assert_eq!(Scope::Team.as_str(), "team", "should name team");
}

#[test]
fn error_codes_are_stable() {
    let all = [
        (Error::InvalidScope(String::new()), "options/invalid-scope"),
        (
            Error::InvalidLimits(String::new()),
            "options/invalid-limits",
        ),
        (Error::InvalidOptions(String::new()), "options/invalid"),
    ];
    for (error, code) in all {
        assert_eq!(error.code(), code, "should keep the code of {error:?}");
        assert!(!error.to_string().is_empty(), "should describe {error:?}");
    }
    let not_a_string = BoundaryError::NotAString(String::new());
    assert_eq!(not_a_string.code(), "input/not-a-string");
}

#[test]
fn a_fractional_compaction_target_is_invalid_target() {
    let input = CompactOptionsInput {
        target: Some(0.5),
        ..CompactOptionsInput::default()
    };
    assert_eq!(
        input.resolve().map_err(|e| e.code()),
        Err("options/invalid-target"),
        "should reject a target that is not whole"
    );
}

#[test]
fn compact_options_default_and_check() {
    let o = CompactOptionsInput::default().resolve().expect("defaults");
    assert_eq!(o, CompactOptions::default());
    assert_eq!(o.target, 25_000);
    let parsed: CompactOptionsInput =
        serde_json::from_str(r#"{"scope":"team","target":100,"today":"2024-02-29"}"#)
            .expect("json");
    let o = parsed.resolve().expect("valid");
    assert_eq!(
        (o.scope, o.target, o.today.as_deref()),
        (Scope::Team, 100, Some("2024-02-29"))
    );
    let nulls: CompactOptionsInput =
        serde_json::from_str(r#"{"scope":null,"target":null,"today":null}"#).expect("json");
    assert_eq!(nulls.resolve(), Ok(CompactOptions::default()));
    let code = |json: &str| {
        serde_json::from_str::<CompactOptionsInput>(json)
            .expect("json")
            .resolve()
            .map(|_| ())
            .map_err(|e| e.code())
    };
    assert_eq!(code(r#"{"scope":"Team"}"#), Err("options/invalid-scope"));
    for bad in ["0", "-5", "1.5", "1e300"] {
        assert_eq!(
            code(&format!(r#"{{"target":{bad}}}"#)),
            Err("options/invalid-target"),
            "{bad}"
        );
    }
    for bad in ["2025-02-29", "2025-1-01", "today", ""] {
        assert_eq!(
            code(&format!(r#"{{"today":"{bad}"}}"#)),
            Err("options/invalid-date"),
            "{bad}"
        );
    }
}

#[test]
fn bad_expire_options_are_coded_errors() {
    let input = |today: Option<&str>, policies: Vec<ExpiryPolicyInput>| ExpireOptionsInput {
        today: today.map(str::to_owned),
        policies: Some(policies),
    };
    let p = |section: Option<&str>, days: Option<f64>| ExpiryPolicyInput {
        section: section.map(str::to_owned),
        max_age_days: days,
    };
    let cases = [
        (input(None, vec![]), "options/invalid-date"),
        (input(Some("2025-13-01"), vec![]), "options/invalid-date"),
        (
            input(Some("2025-06-01"), vec![p(None, Some(3.0))]),
            "options/invalid-policy",
        ),
        (
            input(Some("2025-06-01"), vec![p(Some("🎯"), Some(3.0))]),
            "options/invalid-policy",
        ),
        (
            input(Some("2025-06-01"), vec![p(Some("Log"), None)]),
            "options/invalid-policy",
        ),
        (
            input(Some("2025-06-01"), vec![p(Some("Log"), Some(-1.0))]),
            "options/invalid-policy",
        ),
        (
            input(Some("2025-06-01"), vec![p(Some("Log"), Some(1.5))]),
            "options/invalid-policy",
        ),
        (
            input(Some("2025-06-01"), vec![p(Some("Log"), Some(f64::NAN))]),
            "options/invalid-policy",
        ),
        (
            input(
                Some("2025-06-01"),
                vec![p(Some("Log"), Some(f64::INFINITY))],
            ),
            "options/invalid-policy",
        ),
    ];
    for (options, code) in cases {
        assert_eq!(options.resolve().unwrap_err().code(), code, "{options:?}");
    }
    let ok = input(Some("2025-06-01"), vec![p(Some("Log"), Some(0.0))])
        .resolve()
        .unwrap();
    assert_eq!(
        ok,
        ExpireOptions {
            today: "2025-06-01".into(),
            policies: vec![ExpiryPolicy {
                section: "Log".into(),
                max_age_days: 0,
            }],
        }
    );
    assert_eq!(ok.check(), Ok(()));
}

#[test]
fn bad_recall_options_are_coded_errors() {
    let cases = [
        (
            RecallOptionsInput {
                budget: Some(0.0),
                ..Default::default()
            },
            "options/invalid-budget",
        ),
        (
            RecallOptionsInput {
                budget: Some(1.5),
                ..Default::default()
            },
            "options/invalid-budget",
        ),
        (
            RecallOptionsInput {
                budget: Some(f64::NAN),
                ..Default::default()
            },
            "options/invalid-budget",
        ),
        (
            RecallOptionsInput {
                today: Some("2025-02-30".into()),
                ..Default::default()
            },
            "options/invalid-date",
        ),
        (
            RecallOptionsInput {
                scope: Some("org".into()),
                ..Default::default()
            },
            "options/invalid-scope",
        ),
        (
            RecallOptionsInput {
                half_life_days: Some(0.0),
                ..Default::default()
            },
            "options/invalid-weight",
        ),
        (
            RecallOptionsInput {
                weights: Some(RecallWeightsInput {
                    recency: Some(-1.0),
                    ..Default::default()
                }),
                ..Default::default()
            },
            "options/invalid-weight",
        ),
        (
            RecallOptionsInput {
                weights: Some(RecallWeightsInput {
                    relevance: Some(f64::INFINITY),
                    ..Default::default()
                }),
                ..Default::default()
            },
            "options/invalid-weight",
        ),
    ];
    for (input, code) in cases {
        assert_eq!(input.resolve().unwrap_err().code(), code, "{input:?}");
    }
    let ok = RecallOptionsInput::default().resolve().unwrap();
    assert_eq!(ok, RecallOptions::default());
    assert_eq!(ok.budget, 4_000);
}

#[test]
fn bad_sweep_options_are_coded_errors() {
    let input = |today: &str, days: f64, actor: Option<String>| SweepOptionsInput {
        today: Some(today.into()),
        policies: Some(vec![ExpiryPolicyInput {
            section: Some("Open Questions".into()),
            max_age_days: Some(days),
        }]),
        actor,
    };
    let cases = [
        (input("2025-02-30", 1.0, None), "options/invalid-date"),
        (input("2025-06-01", -1.0, None), "options/invalid-policy"),
        (
            input("2025-06-01", 1.0, Some("x".repeat(257))),
            "store/invalid-actor",
        ),
    ];
    for (options, code) in cases {
        assert_eq!(options.resolve::<()>().unwrap_err().code(), code);
    }
    let ok = input("2025-06-01", 30.0, Some("cron".into()))
        .resolve::<()>()
        .unwrap();
    assert_eq!(ok.today, "2025-06-01");
    assert_eq!(ok.actor.as_deref(), Some("cron"));
    assert_eq!(ok.policies[0].max_age_days, 30);
}
