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
pub(crate) fn encode(segment: &str) -> String {
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

/// What a command authenticates with: an API key (every command but
/// `import`) or the hub's operator token (`import`), each from its
/// environment variable, never from the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    /// `MEMDOC_HUB_KEY`: an API key of the hub.
    Key,
    /// `MEMDOC_HUB_OPERATOR_TOKEN`: the hub's operator token.
    Operator,
}

impl Credential {
    /// The credential of `memdoc hub COMMAND` (`import`, `team create`:
    /// the operator's; the others: a key).
    #[must_use]
    pub fn of(command: &str) -> Self {
        if command == "import" || command == "team create" {
            Self::Operator
        } else {
            Self::Key
        }
    }

    /// The environment variable it is read from.
    #[must_use]
    pub fn variable(self) -> &'static str {
        match self {
            Self::Key => "MEMDOC_HUB_KEY",
            Self::Operator => "MEMDOC_HUB_OPERATOR_TOKEN",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Self::Key => "an API key of the hub",
            Self::Operator => "the hub's operator token",
        }
    }
}

/// The hub's URL and the credential are set, or which is not (exit 2).
#[must_use]
pub fn missing(url: Option<&str>, secret: Option<&str>, credential: Credential) -> Option<Outcome> {
    let unset = |v: Option<&str>| v.map_or(true, |v| v.trim().is_empty());
    if unset(url) {
        return Some(Outcome::failing(
            "MEMDOC_HUB_URL is not set: set it to the hub's URL (e.g. http://127.0.0.1:8787)",
            exit::USAGE,
        ));
    }
    if unset(secret) {
        return Some(Outcome::failing(
            &format!(
                "{} is not set: set it to {} (in the environment, never on the command line)",
                credential.variable(),
                credential.what()
            ),
            exit::USAGE,
        ));
    }
    None
}

/// The path of a team's route (`/v1/teams/T` and `tail`, e.g. `/export`),
/// the team percent-encoded.
#[must_use]
pub fn team_path(team: &str, tail: &str) -> String {
    format!("/v1/teams/{}{tail}", encode(team))
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

/// The record kinds of an export (`memdoc-team/1`, docs/HUB.md) and
/// their counts' names in an import's answer, in the export's order.
const RECORDS: [(&str, &str); 7] = [
    ("member", "members"),
    ("key", "keys"),
    ("policy", "policies"),
    ("memory", "memories"),
    ("revision", "revisions"),
    ("deleted", "deleted"),
    ("audit", "audit"),
];

/// The first line of an export names its format.
const FORMAT: &str = "memdoc-team/1";

/// `counts` as `members 2, keys 3, …`.
fn counted(counts: impl Iterator<Item = (&'static str, u64)>) -> String {
    counts
        .map(|(name, n)| format!("{name} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `memdoc hub export`: the export to `file` or to standard output as the
/// hub sent it, and what it holds on standard error.
#[must_use]
pub fn exported(file: Option<&str>, team: &str, answer: Answer<'_>) -> Outcome {
    if !(200..300).contains(&answer.status) {
        return problem(answer);
    }
    let mut lines = answer.body.lines();
    let header = lines.next().and_then(|l| from_json(l).ok());
    if header.as_ref().and_then(|h| text(h, "format")) != Some(FORMAT) {
        return not_the_hub(answer);
    }
    let mut counts = [0_u64; RECORDS.len()];
    for line in lines {
        let record = from_json(line).ok();
        let kind = record.as_ref().and_then(|r| text(r, "type"));
        if let Some(k) = RECORDS.iter().position(|(t, _)| Some(*t) == kind) {
            counts[k] += 1;
        }
    }
    let summary = format!(
        "memdoc: exported team {}: {}\n",
        printable(team),
        counted(RECORDS.iter().zip(counts).map(|((_, name), n)| (*name, n)))
    );
    match file {
        Some(_) => Outcome {
            stderr: summary,
            write: Some(answer.body.to_owned()),
            ..Outcome::default()
        },
        None => Outcome {
            stdout: answer.body.to_owned(),
            stderr: summary,
            ..Outcome::default()
        },
    }
}

/// `memdoc hub import`: what the hub made of the file, on standard output.
#[must_use]
pub fn imported(file: &str, answer: Answer<'_>) -> Outcome {
    let Some(body) = ok_json(answer) else {
        return problem_of(answer, Credential::Operator);
    };
    let Some(team) = text(&body, "team") else {
        return not_the_hub(answer);
    };
    let counts = RECORDS
        .iter()
        .map(|(_, name)| (*name, whole(&body, name).unwrap_or(0)));
    Outcome::printing(format!(
        "imported {} as team {}: {}\n",
        printable(file),
        printable(team),
        counted(counts)
    ))
}

/// A problem the hub answered to a request made with an API key: one
/// line and its exit code.
#[must_use]
pub fn problem(answer: Answer<'_>) -> Outcome {
    problem_of(answer, Credential::Key)
}

/// A problem the hub answered to a request made with `credential`.
pub(crate) fn problem_of(answer: Answer<'_>, credential: Credential) -> Outcome {
    let body = from_json(answer.body).ok();
    let body = body.as_ref();
    let (Some(code), Some(detail)) = (
        body.and_then(|b| text(b, "code")),
        body.and_then(|b| text(b, "detail")),
    ) else {
        return not_the_hub(answer);
    };
    let hint = match code {
        "auth/missing-key" | "auth/invalid-key" => match credential {
            Credential::Key => "check MEMDOC_HUB_KEY (a key of this hub, not revoked)".to_owned(),
            Credential::Operator => {
                "check MEMDOC_HUB_OPERATOR_TOKEN (the operator token this hub was started with)"
                    .to_owned()
            }
        },
        "auth/forbidden" => "this key's role may not do this".to_owned(),
        "memory/not-found" | "team/not-found" | "revision/not-found" => {
            "check the team, scope and id (another team's or member's memory is not found either)"
                .to_owned()
        }
        "team/exists" => {
            "an import makes a new team: delete the team first (DELETE /v1/teams/TEAM with the operator token), or import where it does not exist".to_owned()
        }
        "import/invalid" => {
            "nothing was imported; import the file as `memdoc hub export` wrote it".to_owned()
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
                "fix {} (below)",
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
pub(super) fn not_the_hub(answer: Answer<'_>) -> Outcome {
    Outcome::failing(
        &format!(
            "hub: unexpected answer (HTTP {}); is MEMDOC_HUB_URL the hub's URL?",
            answer.status
        ),
        exit::HUB_FAILED,
    )
}

/// The body of a 2xx answer, read.
pub(super) fn ok_json(answer: Answer<'_>) -> Option<Value<'_>> {
    if !(200..300).contains(&answer.status) {
        return None;
    }
    from_json(answer.body).ok()
}

pub(crate) fn field<'v, 't>(value: &'v Value<'t>, name: &str) -> Option<&'v Value<'t>> {
    match value {
        Value::Object(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

pub(super) fn text<'v>(value: &'v Value<'_>, name: &str) -> Option<&'v str> {
    match field(value, name)? {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

pub(super) fn whole(value: &Value<'_>, name: &str) -> Option<u64> {
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

/// The string field `name` of a JSON text, if it is one.
pub(crate) fn from_json_text(body: &str, name: &str) -> Option<String> {
    text(&from_json(body).ok()?, name).map(str::to_owned)
}
