//! The hand-written TypeScript contract (`src/wasm/types.d.ts`) names exactly
//! the codes the engine produces: the `DiagnosticCode` union is `Code::ALL`
//! and the `ErrorCode` union is `Error::CODES`, `BOUNDARY_ERROR_CODES` then
//! `STORE_ERROR_CODES`, in order.

use memdoc::js::error::BOUNDARY_ERROR_CODES;
use memdoc::store::STORE_ERROR_CODES;
use memdoc::{Code, Error};

const TYPES: &str = include_str!("../src/wasm/types.d.ts");

/// The string literals of `export type <name> = "a" | "b" ...;`.
fn union(name: &str) -> Vec<&'static str> {
    let head = format!("export type {name} =");
    let start = TYPES
        .find(&head)
        .unwrap_or_else(|| panic!("types.d.ts should declare {name}"))
        + head.len();
    let body = &TYPES[start..];
    let body = &body[..body.find(';').expect("the union should end with ;")];
    body.split('"').skip(1).step_by(2).collect()
}

#[test]
fn diagnostic_code_union_is_code_all() {
    let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        union("DiagnosticCode"),
        all,
        "should list Code::ALL in order"
    );
}

#[test]
fn error_code_union_is_error_codes_then_store_error_codes() {
    assert_eq!(
        union("ErrorCode"),
        [Error::CODES, BOUNDARY_ERROR_CODES, STORE_ERROR_CODES].concat(),
        "should list Error::CODES, BOUNDARY_ERROR_CODES then STORE_ERROR_CODES, in order"
    );
}
