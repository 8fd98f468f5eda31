//! `memdoc hub`: the hub's REST API (docs/HUB.md) from the command line.
//! The front ends make the requests (`MEMDOC_HUB_URL` + the path given
//! here, `Authorization: Bearer $MEMDOC_HUB_KEY`) and hand each answer's
//! status and body here; what is printed, written and exited with is
//! decided here, from the hub's JSON read with the crate's own reader.
//! Every problem the hub answers (RFC 9457, with a stable `code`) is one
//! line, `memdoc: hub: CODE: detail`, with what to do next where there is
//! something to say, and a non-zero exit: 1 for a save it refused (stale,
//! conflicting, rejected), 3 for any other refusal, 4 for a failure of
//! the hub or an answer that is not the hub's.

use std::fmt::Write as _;

use crate::quoted::Quoted;
use crate::store::json::{from_json, Value};

use super::file::file_form;
use super::{exit, printable, Outcome};

/// An answer of the hub: its status, its body, and its `Retry-After`.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    /// The HTTP status.
    pub status: u16,
    /// The body, as text.
    pub body: &'a str,
    /// The `Retry-After` header, if any.
    pub retry_after: Option<&'a str>,
}

/// A memory on the hub, as the command line names it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The team id.
    pub team: &'a str,
    /// `team` or `user`.
    pub scope: &'a str,
    /// The memory id (a user memory: the member id).
    pub id: &'a str,
}

impl Target<'_> {
    /// The path of the memory (`/v1/teams/T/memories/S/I`) and `tail`
    /// (`""`, `"/history"`), each part percent-encoded.
    #[must_use]
    pub fn path(&self, tail: &str) -> String {
        format!(
            "/v1/teams/{}/memories/{}/{}{tail}",
            encode(self.team),
            encode(self.scope),
            encode(self.id)
        )
    }
}

/// A path segment: unreserved characters, `@` and `:` as they are, every
/// other byte as `%XX`.
fn encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~@:".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The hub's URL and key are set, or which is not (exit 2).
#[must_use]
pub fn missing(url: Option<&str>, key: Option<&str>) -> Option<Outcome> {
    let unset = |v: Option<&str>| v.map_or(true, |v| v.trim().is_empty());
    if unset(url) {
        return Some(Outcome::failing(
            "MEMDOC_HUB_URL is not set: set it to the hub's URL (e.g. http://127.0.0.1:8787)",
            exit::USAGE,
        ));
    }
    if unset(key) {
        return Some(Outcome::failing(
            "MEMDOC_HUB_KEY is not set: set it to an API key of the hub (in the environment, never on the command line)",
            exit::USAGE,
        ));
    }
    None
}

/// The base URL without a trailing `/`.
#[must_use]
pub fn base(url: &str) -> &str {
    url.trim().trim_end_matches('/')
}

/// The hub could not be reached at `url` (exit 4).
#[must_use]
pub fn unreachable(url: &str) -> Outcome {
    Outcome::failing(
        &format!("hub: cannot reach {url} (is MEMDOC_HUB_URL right, and the hub running?)"),
        exit::HUB_FAILED,
    )
}

/// `--revision N` as the `If-Match` tag `"N"`, or the failure (exit 2).
///
/// # Errors
/// The outcome of a revision that is not a whole number ≥ 0.
pub fn if_match(revision: &str) -> Result<String, Outcome> {
    match revision.parse::<u64>() {
        Ok(n) if n < 1_000_000_000_000_000 && (n == 0 || !revision.starts_with('0')) => {
            Ok(format!("\"{n}\""))
        }
        _ => Err(Outcome::failing(
            &format!(
                "invalid revision {}: expected the whole number of the revision the file was pulled at (0 for a new memory)",
                Quoted(revision)
            ),
            exit::USAGE,
        )),
    }
}

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
        return problem(put);
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

/// A problem the hub answered: one line and its exit code.
#[must_use]
pub fn problem(answer: Answer<'_>) -> Outcome {
    let body = from_json(answer.body).ok();
    let body = body.as_ref();
    let (Some(code), Some(detail)) = (
        body.and_then(|b| text(b, "code")),
        body.and_then(|b| text(b, "detail")),
    ) else {
        return not_the_hub(answer);
    };
    let hint = match code {
        "auth/missing-key" | "auth/invalid-key" => {
            "check MEMDOC_HUB_KEY (a key of this hub, not revoked)".to_owned()
        }
        "auth/forbidden" => "this key's role may not do this".to_owned(),
        "memory/not-found" | "team/not-found" | "revision/not-found" => {
            "check the team, scope and id (another team's or member's memory is not found either)"
                .to_owned()
        }
        "rate/limited" => format!(
            "retry in {} seconds",
            answer.retry_after.map_or("a few", str::trim)
        ),
        "save/rejected" => {
            let codes: Vec<&str> = body
                .map(|b| list(b, "diagnostics"))
                .unwrap_or_default()
                .iter()
                .filter(|d| text(d, "severity") == Some("error"))
                .filter_map(|d| text(d, "code"))
                .collect();
            format!(
                "fix {} (memdoc check --scope SCOPE FILE shows where)",
                if codes.is_empty() {
                    "its errors".to_owned()
                } else {
                    codes.join(", ")
                }
            )
        }
        "store/conflict" => {
            let sections: Vec<String> = body
                .map(|b| list(b, "conflicts"))
                .unwrap_or_default()
                .iter()
                .filter_map(|c| text(c, "section"))
                .map(|s| Quoted(s).to_string())
                .collect();
            format!(
                "both edits changed {} differently: pull the memory, merge with memdoc merge, and push again",
                if sections.is_empty() {
                    "the same part".to_owned()
                } else {
                    sections.join(", ")
                }
            )
        }
        _ => String::new(),
    };
    let exit = match answer.status {
        409 | 412 | 422 => exit::FINDINGS,
        500.. => exit::HUB_FAILED,
        _ => exit::HUB_REFUSED,
    };
    let line = if hint.is_empty() {
        format!("hub: {code}: {detail}")
    } else {
        format!("hub: {code}: {detail}; {hint}")
    };
    Outcome::failing(&line, exit)
}

/// An answer that is neither the expected JSON nor a problem.
fn not_the_hub(answer: Answer<'_>) -> Outcome {
    Outcome::failing(
        &format!(
            "hub: unexpected answer (HTTP {}); is MEMDOC_HUB_URL the hub's URL?",
            answer.status
        ),
        exit::HUB_FAILED,
    )
}

/// The body of a 2xx answer, read.
fn ok_json(answer: Answer<'_>) -> Option<Value<'_>> {
    if !(200..300).contains(&answer.status) {
        return None;
    }
    from_json(answer.body).ok()
}

fn field<'v, 't>(value: &'v Value<'t>, name: &str) -> Option<&'v Value<'t>> {
    match value {
        Value::Object(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn text<'v>(value: &'v Value<'_>, name: &str) -> Option<&'v str> {
    match field(value, name)? {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

fn whole(value: &Value<'_>, name: &str) -> Option<u64> {
    match field(value, name)? {
        Value::Whole(n) => Some(*n),
        _ => None,
    }
}

fn list<'v, 't>(value: &'v Value<'t>, name: &str) -> &'v [Value<'t>] {
    match field(value, name) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}
