//! `memdoc hub pull`, `push` and `history`: a memory's text, its saves and
//! its revisions, from the hub's answers.

use std::fmt::Write as _;

use memdoc::store::json::{from_json, Value};
use memdoc::Quoted;

use super::super::file::file_form;
use super::super::{exit, printable, Outcome};
use super::answer::{field, list, not_the_hub, ok_json, problem, text, whole};
use super::{Answer, Target};

/// `memdoc hub pull`: to `file` (then the revision on standard output), or
/// the memory on standard output (then the revision on standard error).
#[must_use]
pub fn pulled(file: Option<&str>, answer: Answer<'_>) -> Outcome {
    let Some(body) = ok_json(answer) else {
        return problem(answer);
    };
    let (Some(content), Some(revision)) = (text(&body, "content"), whole(&body, "revision")) else {
        return not_the_hub(answer);
    };
    // The hub answers a memory never saved as revision 0, empty: for the
    // command line that is a memory that does not exist.
    if revision == 0 {
        return Outcome::failing(
            "hub: memory/not-found: this memory has never been saved; to make it, write a file and `memdoc hub push FILE TEAM SCOPE ID --revision 0`",
            exit::HUB_REFUSED,
        );
    }
    let form = file_form(content);
    match file {
        Some(_) => Outcome {
            stdout: format!("{revision}\n"),
            write: Some(form),
            ..Outcome::default()
        },
        None => Outcome {
            stdout: form,
            stderr: format!("memdoc: revision {revision}\n"),
            ..Outcome::default()
        },
    }
}

/// What `memdoc hub push` pushed, to report its answer.
#[derive(Debug, Clone, Copy)]
pub struct Push<'a> {
    /// The file pushed.
    pub file: &'a str,
    /// Its text.
    pub text: &'a str,
    /// Where to.
    pub target: Target<'a>,
    /// `--revision`, as given.
    pub revision: &'a str,
    /// `--merge`.
    pub merge: bool,
}

/// Whether a push's answer needs the memory as it is now (a 412): then the
/// front end reads it (`GET` of the memory) and passes it to [`pushed`].
#[must_use]
pub fn needs_current(put: Answer<'_>) -> bool {
    put.status == 412
}

/// `memdoc hub push`: the new revision on standard output, the save's
/// status, notice and warnings on standard error, and the file rewritten
/// to what the hub holds when that differs (a merge, the canonical form).
/// A 412 says who saved which revision, and how to merge.
#[must_use]
pub fn pushed(push: &Push<'_>, put: Answer<'_>, current: Option<Answer<'_>>) -> Outcome {
    let file = printable(push.file);
    if put.status == 412 {
        return stale(push, current);
    }
    let Some(body) = ok_json(put) else {
        let mut refused = problem(put);
        if put.status == 422 {
            rejected(&mut refused.stderr, &file, put.body);
        }
        return refused;
    };
    let (Some(content), Some(revision), Some(status)) = (
        text(&body, "content"),
        whole(&body, "revision"),
        text(&body, "status"),
    ) else {
        return not_the_hub(put);
    };
    let mut out = Outcome {
        stdout: format!("{revision}\n"),
        ..Outcome::default()
    };
    let said = if status == "no_op" {
        format!("unchanged at revision {revision}")
    } else {
        format!("saved as revision {revision}")
    };
    let _ = writeln!(out.stderr, "memdoc: {file}: {said}");
    if let Some(notice) = text(&body, "notice") {
        let _ = writeln!(out.stderr, "memdoc: {file}: {}", printable(notice));
    }
    for dropped in list(&body, "dropped") {
        if let Value::Str(line) = dropped {
            let _ = writeln!(
                out.stderr,
                "memdoc: {file}: dropped a line before the first heading: {}",
                Quoted(line)
            );
        }
    }
    for d in list(&body, "diagnostics") {
        let (Some(severity), Some(code), Some(message)) =
            (text(d, "severity"), text(d, "code"), text(d, "message"))
        else {
            continue;
        };
        let _ = writeln!(
            out.stderr,
            "memdoc: {file}: {severity} {}: {}",
            printable(code),
            printable(message)
        );
    }
    let form = file_form(content);
    if form != push.text {
        let _ = writeln!(
            out.stderr,
            "memdoc: {file}: now holds revision {revision} as the hub saved it"
        );
        out.write = Some(form);
    }
    out
}

/// The diagnostics of a rejected save, one line each (`FILE:LINE:COLUMN:
/// severity code: message`, its help on the next), errors first.
fn rejected(out: &mut String, file: &str, body: &str) {
    let Ok(body) = from_json(body) else { return };
    let diagnostics = list(&body, "diagnostics");
    for severity in ["error", "warning", "info"] {
        for d in diagnostics
            .iter()
            .filter(|d| text(d, "severity") == Some(severity))
        {
            let (Some(code), Some(message)) = (text(d, "code"), text(d, "message")) else {
                continue;
            };
            let start = field(d, "range").and_then(|r| field(r, "start"));
            let at = |name| start.and_then(|s| whole(s, name)).unwrap_or(1);
            let _ = writeln!(
                out,
                "memdoc: {file}:{}:{}: {severity} {}: {}",
                at("line"),
                at("column"),
                printable(code),
                printable(message)
            );
            if let Some(help) = text(d, "help") {
                let _ = writeln!(
                    out,
                    "memdoc: {file}:{}:{}:   help: {}",
                    at("line"),
                    at("column"),
                    printable(help)
                );
            }
        }
    }
}

fn stale(push: &Push<'_>, current: Option<Answer<'_>>) -> Outcome {
    let now = current.and_then(ok_json);
    let now = now.as_ref();
    let revision = now.and_then(|b| whole(b, "revision"));
    let by = now.and_then(|b| text(b, "updatedBy")).unwrap_or("someone");
    let at = now
        .and_then(|b| text(b, "updatedAt"))
        .map(|at| format!(" at {at}"))
        .unwrap_or_default();
    let t = push.target;
    let what = revision.map_or_else(
        || "a newer revision".to_owned(),
        |r| format!("revision {r}"),
    );
    let how = if push.merge {
        format!(
            "pull it (memdoc hub pull {} {} {} -o NEWER), merge (memdoc merge), and push again",
            t.team, t.scope, t.id
        )
    } else {
        format!(
            "merge with `memdoc hub push {} {} {} {} --revision {} --merge`, or pull it and redo the edit",
            push.file, t.team, t.scope, t.id, push.revision
        )
    };
    Outcome::failing(
        &format!(
            "hub: http/precondition-failed: {} was edited from revision {}, but {} saved {what}{at} since; {how}",
            push.file,
            push.revision,
            printable(by)
        ),
        exit::FINDINGS,
    )
}

/// `memdoc hub history`: one line per revision, newest first.
#[must_use]
pub fn history(answer: Answer<'_>) -> Outcome {
    let Some(body) = ok_json(answer) else {
        return problem(answer);
    };
    let Some(Value::Array(entries)) = field(&body, "entries") else {
        return not_the_hub(answer);
    };
    let mut stdout = String::new();
    for e in entries {
        let codes: Vec<&str> = list(e, "codes")
            .iter()
            .filter_map(|c| {
                if let Value::Str(s) = c {
                    Some(&**s)
                } else {
                    None
                }
            })
            .collect();
        let delta = match field(e, "delta") {
            Some(Value::Negative(n)) => n.to_string(),
            Some(Value::Whole(n)) => format!("+{n}"),
            _ => "?".to_owned(),
        };
        let archived = list(e, "archived").len();
        let _ = writeln!(
            stdout,
            "{}\t{}\t{}\t{} characters ({delta}){}{}",
            whole(e, "revision").map_or_else(|| "?".to_owned(), |r| r.to_string()),
            printable(text(e, "at").unwrap_or("?")),
            printable(text(e, "actor").unwrap_or("-")),
            whole(e, "chars").unwrap_or(0),
            if codes.is_empty() {
                String::new()
            } else {
                format!("\t{}", printable(&codes.join(",")))
            },
            if archived == 0 {
                String::new()
            } else {
                format!("\tarchived {archived}")
            },
        );
    }
    Outcome::printing(stdout)
}
