//! The one-line failures the front ends report the same way: a file they
//! could not read or write (named by the kind of failure, which each front
//! end takes from its own error, so that both print the same words), a
//! `git show` that failed, an option the engine refused.

use memdoc::Error;
use memdoc::Quoted;

use super::{exit, Outcome};

/// How reading or writing a file failed, by the front end's error.
#[must_use]
pub fn io_reason(kind: &str) -> &'static str {
    match kind {
        "not-found" => "no such file",
        "permission-denied" => "permission denied",
        "is-a-directory" => "is a directory",
        "not-utf8" => "not UTF-8 text",
        _ => "input/output error",
    }
}

/// `file` could not be read; `kind` is one of `not-found`,
/// `permission-denied`, `is-a-directory`, `not-utf8` or anything else.
#[must_use]
pub fn read_failed(file: &str, kind: &str) -> Outcome {
    Outcome::failing(
        &format!("{file}: cannot read it: {}", io_reason(kind)),
        exit::USAGE,
    )
}

/// `file` could not be written.
#[must_use]
pub fn write_failed(file: &str, kind: &str) -> Outcome {
    Outcome::failing(
        &format!("{file}: cannot write it: {}", io_reason(kind)),
        exit::USAGE,
    )
}

/// `git show REV:./FILE` failed for a reason other than the file not being
/// in that revision; `git_error` is the first line git printed.
#[must_use]
pub fn git_failed(rev: &str, file: &str, git_error: &str) -> Outcome {
    let said = git_error.lines().next().unwrap_or("").trim();
    Outcome::failing(
        &format!(
            "{file}: cannot read it as of {}: {}",
            Quoted(rev),
            if said.is_empty() { "git failed" } else { said }
        ),
        exit::USAGE,
    )
}

/// An option the engine refused, with its code.
#[must_use]
pub fn option_failed(error: &Error) -> Outcome {
    Outcome::failing(&format!("{error} ({})", error.code()), exit::USAGE)
}

/// `memdoc recall` found no files of `embedder` (`any`: of no embedder)
/// and recalled by words only: where the files come from.
#[must_use]
pub fn no_embedder(embedder: &str) -> String {
    let which = if embedder == "any" {
        "no embedder's files were found".to_owned()
    } else {
        format!("the files of the {embedder} embedder were not found")
    };
    format!(
        "memdoc: recalled by words only: {which} (MEMDOC_MODELS, target/models); \
         get them with `bash scripts/setup embedders` in memdoc's repository, \
         or `npm install @memdoc/static` beside the npm package\n"
    )
}
