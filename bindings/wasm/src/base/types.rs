//! The TypeScript contract: the declarations generated from the Rust types
//! that cross the boundary (`generated.d.ts`, kept current by a test in
//! `crate::js::declarations`), the few written by hand
//! (`handwritten.d.ts`), the `DiagnosticCode` and `ErrorCode` unions
//! generated from the code lists ([`crate::js::typescript`]), and the typed
//! values the exports take and return, so the generated `.d.ts` names
//! `Report` rather than `any`.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::js::typescript::{DIAGNOSTIC_CODE_UNION, ERROR_CODE_UNION};

#[wasm_bindgen(typescript_custom_section)]
const GENERATED: &str = include_str!("generated.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const HANDWRITTEN: &str = include_str!("handwritten.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const DIAGNOSTIC_CODES: &str = DIAGNOSTIC_CODE_UNION;

#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODES: &str = ERROR_CODE_UNION;

#[wasm_bindgen]
extern "C" {
    /// `MemoryDocument`.
    #[wasm_bindgen(typescript_type = "MemoryDocument")]
    pub type MemoryDocument;
    /// `Usage`.
    #[wasm_bindgen(typescript_type = "Usage")]
    pub type Usage;
    /// `Report`.
    #[wasm_bindgen(typescript_type = "Report")]
    pub type Report;
    /// `SavePlan`.
    #[wasm_bindgen(typescript_type = "SavePlan")]
    pub type SavePlan;
    /// `Partial<Limits>`.
    #[wasm_bindgen(typescript_type = "Partial<Limits>")]
    pub type LimitsArg;
    /// `ValidateOptions`.
    #[wasm_bindgen(typescript_type = "ValidateOptions")]
    pub type ValidateOptions;
    /// `SaveOptions`.
    #[wasm_bindgen(typescript_type = "SaveOptions")]
    pub type SaveOptions;
    /// `InjectOptions`.
    #[wasm_bindgen(typescript_type = "InjectOptions")]
    pub type InjectOptions;
    /// `WritingRulesOptions`.
    #[wasm_bindgen(typescript_type = "WritingRulesOptions")]
    pub type WritingRulesOptions;
    /// `DiagnosticCode[]`.
    #[wasm_bindgen(typescript_type = "DiagnosticCode[]")]
    pub type DiagnosticCodeList;
    /// `ErrorCode[]`.
    #[wasm_bindgen(typescript_type = "ErrorCode[]")]
    pub type ErrorCodeList;
    /// `MergeResult`.
    #[wasm_bindgen(typescript_type = "MergeResult")]
    pub type MergeResult;
    /// `CompactOptions`.
    #[wasm_bindgen(typescript_type = "CompactOptions")]
    pub type CompactOptions;
    /// `Compaction`.
    #[wasm_bindgen(typescript_type = "Compaction")]
    pub type Compaction;
    /// `Loaded`.
    #[wasm_bindgen(typescript_type = "Loaded")]
    pub type Loaded;
    /// `SaveOutcome`.
    #[wasm_bindgen(typescript_type = "SaveOutcome")]
    pub type SaveOutcome;
    /// `RecallOptions`.
    #[wasm_bindgen(typescript_type = "RecallOptions")]
    pub type RecallOptions;
    /// `Recall`.
    #[wasm_bindgen(typescript_type = "Recall")]
    pub type Recall;
    /// `ExpireOptions`.
    #[wasm_bindgen(typescript_type = "ExpireOptions")]
    pub type ExpireOptions;
    /// `Expiry`.
    #[wasm_bindgen(typescript_type = "Expiry")]
    pub type Expiry;
    /// `SweepOutcome`.
    #[wasm_bindgen(typescript_type = "SweepOutcome")]
    pub type SweepOutcome;
    /// `AuditEntry[]`.
    #[wasm_bindgen(typescript_type = "AuditEntry[]")]
    pub type AuditEntryList;
}
