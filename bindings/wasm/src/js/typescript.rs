//! The TypeScript unions of the stable codes, built at compile time from the
//! lists the engine uses (`Code::ALL`, `Error::CODES`, the boundary's and the
//! store's codes), so the published `.d.ts` cannot drift from them. The wasm
//! boundary puts them into the `.d.ts` beside the declarations generated
//! from the types (`super::declarations`) and the few written by hand.

use memdoc::store::STORE_ERROR_CODES;
use memdoc::Code;
use memdoc::Error;

use super::error::BOUNDARY_ERROR_CODES;

/// Every diagnostic code, as strings, in the order of `Code::ALL`.
const DIAGNOSTIC_CODES: [&str; Code::ALL.len()] = {
    let mut codes = [""; Code::ALL.len()];
    let mut i = 0;
    while i < codes.len() {
        codes[i] = Code::ALL[i].as_str();
        i += 1;
    }
    codes
};

const ERROR_CODE_COUNT: usize =
    Error::CODES.len() + BOUNDARY_ERROR_CODES.len() + STORE_ERROR_CODES.len();

/// Every error code, in the order `errorCodes()` lists them.
pub const ERROR_CODES: [&str; ERROR_CODE_COUNT] = {
    let lists = [Error::CODES, BOUNDARY_ERROR_CODES, STORE_ERROR_CODES];
    let mut codes = [""; ERROR_CODE_COUNT];
    let (mut list, mut at) = (0, 0);
    while list < lists.len() {
        let mut i = 0;
        while i < lists[list].len() {
            codes[at] = lists[list][i];
            (i, at) = (i + 1, at + 1);
        }
        list += 1;
    }
    codes
};

const DIAGNOSTIC_HEAD: &str = "/** Every stable diagnostic code (FORMAT.md §9); `diagnosticCodes()` lists them at run time. */\nexport type DiagnosticCode =";
const ERROR_HEAD: &str = "/** The `code` of every error memdoc throws; `errorCodes()` lists them at run time. */\nexport type ErrorCode =";

/// `export type DiagnosticCode = | "…" | …;` with its doc comment.
pub const DIAGNOSTIC_CODE_UNION: &str = {
    const BYTES: [u8; union_len(DIAGNOSTIC_HEAD, &DIAGNOSTIC_CODES)] =
        union(DIAGNOSTIC_HEAD, &DIAGNOSTIC_CODES);
    as_str(&BYTES)
};

/// `export type ErrorCode = | "…" | …;` with its doc comment.
pub const ERROR_CODE_UNION: &str = {
    const BYTES: [u8; union_len(ERROR_HEAD, &ERROR_CODES)] = union(ERROR_HEAD, &ERROR_CODES);
    as_str(&BYTES)
};

/// Piece `n` of a union: the head, then `\n  | "`, the code and `"` for
/// each code, then `;\n`.
const fn piece<'a>(head: &'a str, codes: &[&'a str], n: usize) -> &'a str {
    if n == 0 {
        head
    } else if n == 1 + 3 * codes.len() {
        ";\n"
    } else {
        match (n - 1) % 3 {
            0 => "\n  | \"",
            1 => codes[(n - 1) / 3],
            _ => "\"",
        }
    }
}

const fn union_len(head: &str, codes: &[&str]) -> usize {
    let (mut len, mut n) = (0, 0);
    while n < 2 + 3 * codes.len() {
        len += piece(head, codes, n).len();
        n += 1;
    }
    len
}

const fn union<const N: usize>(head: &str, codes: &[&str]) -> [u8; N] {
    let mut out = [0; N];
    let (mut at, mut n) = (0, 0);
    while n < 2 + 3 * codes.len() {
        let bytes = piece(head, codes, n).as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            out[at] = bytes[i];
            (at, i) = (at + 1, i + 1);
        }
        n += 1;
    }
    assert!(at == N, "union_len and union should agree");
    out
}

const fn as_str(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("a union of code strings is UTF-8"),
    }
}
