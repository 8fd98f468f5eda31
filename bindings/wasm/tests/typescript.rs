//! The TypeScript contract's code unions are generated from the code lists
//! (`memdoc_wasm::js::typescript`): `DiagnosticCode` is `Code::ALL` and
//! `ErrorCode` is `Error::CODES`, `BOUNDARY_ERROR_CODES` then
//! `STORE_ERROR_CODES`, in order; the other declarations
//! (`src/base/generated.d.ts`, `src/base/handwritten.d.ts`) do not list them
//! a second time.

use memdoc::store::STORE_ERROR_CODES;
use memdoc::{Code, Error};
use memdoc_wasm::js::error::BOUNDARY_ERROR_CODES;
use memdoc_wasm::js::typescript::{DIAGNOSTIC_CODE_UNION, ERROR_CODE_UNION};

const DECLARATIONS: [(&str, &str); 2] = [
    ("generated.d.ts", include_str!("../src/base/generated.d.ts")),
    (
        "handwritten.d.ts",
        include_str!("../src/base/handwritten.d.ts"),
    ),
];

/// The string literals of `export type <name> = "a" | "b" ...;` in `text`.
fn union<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("export type {name} =");
    let start = text
        .find(&head)
        .unwrap_or_else(|| panic!("should declare {name}"))
        + head.len();
    let body = &text[start..];
    let body = &body[..body.find(';').expect("the union should end with ;")];
    body.split('"').skip(1).step_by(2).collect()
}

#[test]
fn diagnostic_code_union_is_code_all() {
    let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        union(DIAGNOSTIC_CODE_UNION, "DiagnosticCode"),
        all,
        "should list Code::ALL in order"
    );
    assert!(
        DIAGNOSTIC_CODE_UNION.starts_with("/** "),
        "should keep its doc comment"
    );
}

#[test]
fn error_code_union_is_every_error_code() {
    assert_eq!(
        union(ERROR_CODE_UNION, "ErrorCode"),
        [Error::CODES, BOUNDARY_ERROR_CODES, STORE_ERROR_CODES].concat(),
        "should list Error::CODES, BOUNDARY_ERROR_CODES then STORE_ERROR_CODES, in order"
    );
}

#[test]
fn the_other_declarations_do_not_repeat_the_unions() {
    for (file, text) in DECLARATIONS {
        for name in ["DiagnosticCode", "ErrorCode"] {
            assert!(
                !text.contains(&format!("export type {name} =")),
                "{file} should use the generated {name}, not declare it"
            );
        }
    }
}
