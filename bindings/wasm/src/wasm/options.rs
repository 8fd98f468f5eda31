//! The options types of `crate::js::input` as the package reads them from
//! JavaScript: each field by its name in the TypeScript declarations, which
//! are generated from the same types (`test-js/options-read.test.mjs` checks
//! that every field declared there is read here, at every level).

use wasm_bindgen::JsValue;

use super::read::{Fields, Invalid, Path, Read};
use crate::js::input::{
    CompactOptionsInput, ExpireOptionsInput, ExpiryPolicyInput, LimitsInput, MemoryRefInput,
    OptionsInput, RecallOptionsInput, RecallWeightsInput, RecalledInput, StoreOptionsInput,
    StoreSaveOptionsInput, StoredRecordsInput, StoredSnapshotInput, SweepOptionsInput,
};

/// `impl Read` for each type: its fields, each `optional` or `required`,
/// by name.
macro_rules! reads {
    ($($ty:ident { $($field:ident: $how:ident($name:literal)),+ $(,)? })+) => {
        $(
            impl Read for $ty {
                fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
                    let fields = Fields::of(value, at)?;
                    Ok(Self { $($field: fields.$how($name)?),+ })
                }
            }
        )+
    };
}

reads! {
    LimitsInput {
        soft: optional("soft"),
        hard: optional("hard"),
    }
    RecalledInput {
        selected: required("selected"),
        items: required("items"),
    }
    OptionsInput {
        scope: optional("scope"),
        previous: optional("previous"),
        limits: optional("limits"),
        forbidden_team_headings: optional("forbiddenTeamHeadings"),
        allow_erase: optional("allowErase"),
        user_name: optional("userName"),
        recalled: optional("recalled"),
    }
    CompactOptionsInput {
        scope: optional("scope"),
        target: optional("target"),
        today: optional("today"),
    }
    StoreOptionsInput {
        limits: optional("limits"),
        forbidden_team_headings: optional("forbiddenTeamHeadings"),
        key_prefix: optional("keyPrefix"),
        history_depth: optional("historyDepth"),
        compact_over_limit: optional("compactOverLimit"),
        timeout_ms: optional("timeoutMs"),
    }
    StoreSaveOptionsInput {
        base_revision: optional("baseRevision"),
        actor: optional("actor"),
        allow_erase: optional("allowErase"),
        on_conflict: optional("onConflict"),
    }
    MemoryRefInput {
        scope: required("scope"),
        id: required("id"),
    }
    StoredRecordsInput {
        head: required("head"),
        snapshots: required("snapshots"),
    }
    StoredSnapshotInput {
        revision: required("revision"),
        key: required("key"),
        value: required("value"),
    }
    ExpiryPolicyInput {
        section: optional("section"),
        max_age_days: optional("maxAgeDays"),
    }
    ExpireOptionsInput {
        today: optional("today"),
        policies: optional("policies"),
    }
    SweepOptionsInput {
        today: optional("today"),
        policies: optional("policies"),
        actor: optional("actor"),
    }
    RecallWeightsInput {
        relevance: optional("relevance"),
        recency: optional("recency"),
        priority: optional("priority"),
    }
    RecallOptionsInput {
        scope: optional("scope"),
        budget: optional("budget"),
        today: optional("today"),
        pinned: optional("pinned"),
        weights: optional("weights"),
        half_life_days: optional("halfLifeDays"),
    }
}
