//! The TypeScript declarations of every data type that crosses the
//! JavaScript boundary, generated from the Rust types themselves with
//! ts-rs (a test-only dependency: nothing of it reaches the library or the
//! `.wasm`). The views and inputs derive `ts_rs::TS` in test builds, the
//! core results with the engine's `typescript` feature, which this crate's
//! tests turn on; their `///` docs become the declarations' doc comments (a type's
//! first paragraph; fields' whole docs).
//!
//! The result is committed as `src/base/generated.d.ts`, which the wasm
//! build puts into the package's `.d.ts` (src/base/types.rs). The test
//! below fails when the committed file is not what the types give, so a
//! renamed, added or removed field or variant cannot drift from the
//! published declarations; `MEMDOC_UPDATE_TYPES=1 cargo test -p
//! memdoc-wasm --lib declarations` rewrites the file. Another test fails when a declaration
//! uses a type that is not declared. What cannot be derived (the store's
//! class, `KvHost`, the callbacks of `StoreOptions`, `MemdocError`) is
//! written by hand in src/base/handwritten.d.ts.

mod format;

use std::fmt::Write as _;

use ts_rs::{Config, TS};

use format::{declaration, interface_body, object_body};

use memdoc::store::{
    ArchivedEntry, Loaded, OnConflict, StoreStatus, StoredRecords, StoredSnapshot, SweepOutcome,
    SweepStatus,
};
use memdoc::LegacyMarker;
use memdoc::SaveStatus;
use memdoc::Scope;
use memdoc::Severity;
use memdoc::{ConflictKind, Side};
use memdoc::{ExpiredEntry, Expiry};
use memdoc::{Level, Limits, Usage};
use memdoc::{
    Measure, OmitReason, OmittedItem, PriorityMeasure, Recall, RecallTotals, RecalledItem,
    RecencyMeasure, Why,
};
use memdoc::{Position, Range};
use memdoc::{Priority, RemovalReason};

use super::compact::{CompactionView, MergedSectionView, RemovedEntryView};
use super::input::{
    CompactOptionsInput, ExpireOptionsInput, ExpiryPolicyInput, LimitsInput, MemoryRefInput,
    OptionsInput, RecallOptionsInput, RecallWeightsInput, StoreOptionsInput, StoreSaveOptionsInput,
    SweepOptionsInput,
};
use super::merge::{ConflictSideView, ConflictView, DroppedLineView, MergeResultView};
use super::store::{AuditEntryView, RewriteRequestView, SaveOutcomeView};
use super::view::{
    DiagnosticView, DocumentView, EntryView, LineView, RawLineView, ReportView, SavePlanView,
    SectionView,
};

/// Where the generated declarations are committed.
const GENERATED: &str = "src/base/generated.d.ts";

/// The options of the pure functions: one Rust type ([`OptionsInput`])
/// read by all four, each declared with the fields it uses. Every field of
/// `OptionsInput` is declared by at least one.
const PURE_OPTIONS: [(&str, &str, Option<&str>, &[&str]); 4] = [
    (
        "ValidateOptions",
        "Options of `validate`.",
        None,
        &["scope", "previous", "limits", "forbiddenTeamHeadings"],
    ),
    (
        "SaveOptions",
        "Options of `planSave`.",
        Some("ValidateOptions"),
        &["allowErase"],
    ),
    (
        "InjectOptions",
        "Options of `injectionBlock`.",
        None,
        &["scope", "limits", "userName", "recalled"],
    ),
    (
        "WritingRulesOptions",
        "Options of `writingRules`.",
        None,
        &["scope", "limits"],
    ),
];

/// The fields of `T`, an object type.
fn fields<T: TS>(cfg: &Config) -> Vec<format::Field> {
    let decl = T::decl(cfg);
    let ty = decl.split_once(" = ").map_or("", |(_, ty)| ty);
    object_body(ty.trim_end_matches(';'))
        .unwrap_or_else(|| panic!("{} should be an object type", T::name(cfg)))
}

/// The declaration of `T`.
fn decl<T: TS>(cfg: &Config) -> String {
    declaration(&T::decl(cfg), T::docs().as_deref())
}

/// The four options interfaces of the pure functions, each with its fields
/// of [`OptionsInput`].
fn pure_options(cfg: &Config) -> String {
    let fields = fields::<OptionsInput>(cfg);
    let mut out = String::new();
    let mut used = Vec::new();
    for (name, doc, extends, names) in PURE_OPTIONS {
        let picked: Vec<_> = names
            .iter()
            .map(|n| {
                used.push(*n);
                fields
                    .iter()
                    .find(|f| f.name.trim_end_matches('?') == *n)
                    .unwrap_or_else(|| panic!("OptionsInput should have a field {n} ({name})"))
                    .clone()
            })
            .collect();
        let extends = extends.map(|e| format!("extends {e} ")).unwrap_or_default();
        let _ = writeln!(
            out,
            "/** {doc} */\nexport interface {name} {extends}{}\n",
            interface_body(&picked, "")
        );
    }
    for f in &fields {
        assert!(
            used.contains(&f.name.trim_end_matches('?')),
            "OptionsInput's field {} should be declared in one of PURE_OPTIONS",
            f.name
        );
    }
    out.pop();
    out
}

/// The declarations written so far, and the names they declare and use.
struct Declarations {
    cfg: Config,
    parts: Vec<String>,
    declared: Vec<String>,
    referenced: Vec<String>,
}

impl Declarations {
    /// The declaration of `T`.
    fn add<T: TS + 'static>(&mut self) -> &mut Self {
        self.parts.push(decl::<T>(&self.cfg));
        self.declared.push(T::ident(&self.cfg));
        self.referenced
            .extend(T::dependencies(&self.cfg).into_iter().map(|d| d.ts_name));
        self
    }

    /// The interfaces of [`PURE_OPTIONS`].
    fn pure_options(&mut self) -> &mut Self {
        self.parts.push(pure_options(&self.cfg));
        self.declared
            .extend(PURE_OPTIONS.iter().map(|(name, ..)| (*name).to_owned()));
        self.referenced.extend(
            OptionsInput::dependencies(&self.cfg)
                .into_iter()
                .map(|d| d.ts_name),
        );
        self
    }

    /// A comment line.
    fn text(&mut self, text: &str) -> &mut Self {
        self.parts.push(text.to_owned());
        self
    }
}

/// Every declaration, in the order of API.md.
fn generated() -> Declarations {
    let mut out = Declarations {
        cfg: Config::new().with_large_int("number"),
        parts: Vec::new(),
        declared: Vec::new(),
        referenced: Vec::new(),
    };
    out
        .text("// Generated from the Rust types that cross the boundary (src/js/declarations/): do not edit.\n")
        .add::<Scope>()
        .add::<Limits>()
        .pure_options()
        .add::<Position>()
        .add::<Range>()
        .add::<EntryView<'static>>()
        .add::<RawLineView<'static>>()
        .add::<LineView<'static>>()
        .add::<SectionView<'static>>()
        .add::<DocumentView<'static>>()
        .add::<Level>()
        .add::<Usage>()
        .add::<Severity>()
        .add::<DiagnosticView>()
        .add::<ReportView>()
        .add::<SaveStatus>()
        .add::<SavePlanView>()
        .text("// ---- merge (docs/ops.md) ------------------------------------------------\n")
        .add::<MergeResultView>()
        .add::<ConflictKind>()
        .add::<ConflictView>()
        .add::<ConflictSideView>()
        .add::<Side>()
        .add::<DroppedLineView>()
        .text("// ---- recall and expire (docs/API.md, \"Recall and expiry\") ----------------\n")
        .add::<RecallOptionsInput>()
        .add::<RecallWeightsInput>()
        .add::<Recall>()
        .add::<RecalledItem>()
        .add::<Why>()
        .add::<Measure>()
        .add::<RecencyMeasure>()
        .add::<PriorityMeasure>()
        .add::<OmitReason>()
        .add::<OmittedItem>()
        .add::<RecallTotals>()
        .add::<ExpiryPolicyInput>()
        .add::<ExpireOptionsInput>()
        .add::<Expiry>()
        .add::<ExpiredEntry>()
        .text("// ---- compact (docs/ops.md) ----------------------------------------------\n")
        .add::<CompactOptionsInput>()
        .add::<CompactionView<'static>>()
        .add::<MergedSectionView<'static>>()
        .add::<RemovalReason>()
        .add::<Priority>()
        .add::<RemovedEntryView<'static>>()
        .text("// ---- the store (API.md, \"Persistence through the host\") -----------------\n")
        .add::<MemoryRefInput>()
        .add::<RewriteRequestView<'static>>()
        .add::<StoreOptionsInput>()
        .add::<Loaded>()
        .add::<StoreSaveOptionsInput>()
        .add::<StoreStatus>()
        .add::<SaveOutcomeView>()
        .add::<ArchivedEntry>()
        .add::<AuditEntryView>()
        .add::<SweepOptionsInput>()
        .add::<SweepStatus>()
        .add::<SweepOutcome>()
        .add::<StoredRecords>()
        .add::<StoredSnapshot>();
    out
}

/// The string literals of a union declaration `type X = "a" | "b";`.
fn members<T: TS>() -> Vec<String> {
    let decl = T::decl(&Config::new());
    decl.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The field names of an object type's declaration.
fn field_names<T: TS>() -> Vec<String> {
    fields::<T>(&Config::new())
        .into_iter()
        .map(|f| f.name.trim_end_matches('?').to_owned())
        .collect()
}

#[test]
fn the_committed_declarations_are_what_the_types_give() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED);
    let fresh = generated().parts.join("\n");
    if std::env::var_os("MEMDOC_UPDATE_TYPES").is_some() {
        std::fs::write(&path, &fresh).expect("should write the declarations");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{GENERATED} is not what the Rust types give: a field or variant changed. \
         Run `MEMDOC_UPDATE_TYPES=1 cargo test -p memdoc-wasm --lib declarations`, review the diff \
         and commit it (with docs/API.md when the contract changed)."
    );
}

#[test]
fn the_input_unions_are_what_the_parsers_accept() {
    // Scope and OnConflict arrive as strings and are parsed with FromStr;
    // their unions must be exactly the accepted strings.
    let scopes = members::<Scope>();
    assert_eq!(scopes, [Scope::User.as_str(), Scope::Team.as_str()]);
    for s in &scopes {
        assert!(s.parse::<Scope>().is_ok(), "{s} should parse as a Scope");
    }
    let policies = members::<OnConflict>();
    assert_eq!(policies, ["reject", "merge"]);
    let parsed: Vec<OnConflict> = policies
        .iter()
        .map(|s| s.parse().expect("should parse"))
        .collect();
    assert_eq!(parsed, [OnConflict::Reject, OnConflict::Merge]);
}

#[test]
fn partial_limits_are_the_fields_limits_input_reads() {
    // `limits?: Partial<Limits>` stands for LimitsInput.
    assert_eq!(field_names::<LimitsInput>(), field_names::<Limits>());
}

#[test]
fn the_unions_of_as_str_strings_are_what_as_str_gives() {
    // The views carry these enums as `as_str()` strings (one serializer for
    // all of them keeps the .wasm small); their unions are derived from the
    // variants, so a variant added, removed or renamed on one side only
    // fails here.
    assert_eq!(
        members::<Severity>(),
        [Severity::Error, Severity::Warning, Severity::Info].map(Severity::as_str)
    );
    assert_eq!(
        members::<SaveStatus>(),
        [SaveStatus::Saved, SaveStatus::NoOp, SaveStatus::Rejected].map(SaveStatus::as_str)
    );
    assert_eq!(
        members::<StoreStatus>(),
        [
            StoreStatus::Saved,
            StoreStatus::NoOp,
            StoreStatus::Rejected,
            StoreStatus::Conflict
        ]
        .map(StoreStatus::as_str)
    );
    assert_eq!(
        members::<LegacyMarker>(),
        [LegacyMarker::Fact, LegacyMarker::Pref, LegacyMarker::Instr].map(LegacyMarker::as_str)
    );
    assert_eq!(
        members::<Side>(),
        [Side::Base, Side::Ours, Side::Theirs].map(Side::as_str)
    );
    assert_eq!(
        members::<ConflictKind>(),
        [
            ConflictKind::Entry,
            ConflictKind::Lines,
            ConflictKind::SectionRemoved,
            ConflictKind::Title
        ]
        .map(ConflictKind::as_str)
    );
    assert_eq!(
        members::<Priority>(),
        [
            Priority::Transient,
            Priority::Other,
            Priority::Facts,
            Priority::Core
        ]
        .map(Priority::as_str)
    );
    assert_eq!(
        members::<RemovalReason>(),
        [RemovalReason::Duplicate, RemovalReason::Oldest].map(RemovalReason::as_str)
    );
}

#[test]
fn a_line_kind_is_the_string_it_serializes_as() {
    let kind = |fields: &[format::Field]| {
        fields
            .iter()
            .find(|f| f.name == "kind")
            .map(|f| f.ty.clone())
            .expect("a kind field")
    };
    let cfg = Config::new();
    assert_eq!(
        kind(&fields::<EntryView>(&cfg)),
        format!("\"{}\"", EntryView::KIND.as_str())
    );
    assert_eq!(
        kind(&fields::<RawLineView>(&cfg)),
        format!("\"{}\"", RawLineView::KIND.as_str())
    );
}

#[test]
fn every_type_a_declaration_names_is_declared() {
    let all = generated();
    for name in &all.referenced {
        assert!(
            all.declared.contains(name),
            "{name} is used by a declaration but not declared: add it to generated()"
        );
    }
}
