//! The options types of `crate::js::input` as the package reads them from
//! JavaScript: each field by its name in the TypeScript declarations, which
//! are generated from the same types (`test-js/options-read.test.mjs` checks
//! that every field declared there is read here, at every level).

use wasm_bindgen::JsValue;

use super::read::{Fields, Invalid, Path, Read};
use crate::js::input::{
    CompactOptionsInput, ExpireOptionsInput, ExpiryPolicyInput, LimitsInput, MemoryRefInput,
    OptionsInput, RecallOptionsInput, RecallWeightsInput, RecalledInput, StoreOptionsInput,
    StoreSaveOptionsInput, SweepOptionsInput,
};

impl Read for LimitsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            soft: f.optional("soft")?,
            hard: f.optional("hard")?,
        })
    }
}

impl Read for RecalledInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            selected: f.required("selected")?,
            items: f.required("items")?,
        })
    }
}

impl Read for OptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            scope: f.optional("scope")?,
            previous: f.optional("previous")?,
            limits: f.optional("limits")?,
            forbidden_team_headings: f.optional("forbiddenTeamHeadings")?,
            allow_erase: f.optional("allowErase")?,
            user_name: f.optional("userName")?,
            recalled: f.optional("recalled")?,
        })
    }
}

impl Read for CompactOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            scope: f.optional("scope")?,
            target: f.optional("target")?,
            today: f.optional("today")?,
        })
    }
}

impl Read for StoreOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            limits: f.optional("limits")?,
            forbidden_team_headings: f.optional("forbiddenTeamHeadings")?,
            key_prefix: f.optional("keyPrefix")?,
            history_depth: f.optional("historyDepth")?,
            compact_over_limit: f.optional("compactOverLimit")?,
            timeout_ms: f.optional("timeoutMs")?,
        })
    }
}

impl Read for StoreSaveOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            base_revision: f.optional("baseRevision")?,
            actor: f.optional("actor")?,
            allow_erase: f.optional("allowErase")?,
            on_conflict: f.optional("onConflict")?,
        })
    }
}

impl Read for MemoryRefInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            scope: f.required("scope")?,
            id: f.required("id")?,
        })
    }
}

impl Read for ExpiryPolicyInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            section: f.optional("section")?,
            max_age_days: f.optional("maxAgeDays")?,
        })
    }
}

impl Read for ExpireOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            today: f.optional("today")?,
            policies: f.optional("policies")?,
        })
    }
}

impl Read for SweepOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            today: f.optional("today")?,
            policies: f.optional("policies")?,
            actor: f.optional("actor")?,
        })
    }
}

impl Read for RecallWeightsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            relevance: f.optional("relevance")?,
            recency: f.optional("recency")?,
            priority: f.optional("priority")?,
        })
    }
}

impl Read for RecallOptionsInput {
    fn read(value: JsValue, at: Path<'_>) -> Result<Self, Invalid> {
        let f = Fields::of(value, at)?;
        Ok(Self {
            scope: f.optional("scope")?,
            budget: f.optional("budget")?,
            today: f.optional("today")?,
            pinned: f.optional("pinned")?,
            weights: f.optional("weights")?,
            half_life_days: f.optional("halfLifeDays")?,
        })
    }
}
