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

mod answer;
mod backup;
mod memories;

pub use answer::problem;
pub(crate) use answer::{field, from_json_text, problem_of};
pub(crate) use answer::{not_the_hub, ok_json, text, whole};
pub use backup::{exported, imported};
pub use memories::{history, needs_current, pulled, pushed, Push};

use std::fmt::Write as _;

use memdoc::Quoted;

use super::{exit, Outcome};

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
    let unset = |v: Option<&str>| v.is_none_or(|v| v.trim().is_empty());
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
