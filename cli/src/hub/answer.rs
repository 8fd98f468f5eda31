//! The hub's answers read: its problems (RFC 9457, with a stable `code`)
//! as one line and an exit code, an answer that is not the hub's, and the
//! fields of its JSON.

use memdoc::store::json::{from_json, Value};
use memdoc::Quoted;

use super::super::{exit, Outcome};
use super::{Answer, Credential};

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
pub(crate) fn not_the_hub(answer: Answer<'_>) -> Outcome {
    Outcome::failing(
        &format!(
            "hub: unexpected answer (HTTP {}); is MEMDOC_HUB_URL the hub's URL?",
            answer.status
        ),
        exit::HUB_FAILED,
    )
}

/// The body of a 2xx answer, read.
pub(crate) fn ok_json(answer: Answer<'_>) -> Option<Value<'_>> {
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

pub(crate) fn text<'v>(value: &'v Value<'_>, name: &str) -> Option<&'v str> {
    match field(value, name)? {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

pub(crate) fn whole(value: &Value<'_>, name: &str) -> Option<u64> {
    match field(value, name)? {
        Value::Whole(n) => Some(*n),
        _ => None,
    }
}

pub(super) fn list<'v, 't>(value: &'v Value<'t>, name: &str) -> &'v [Value<'t>] {
    match field(value, name) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// The string field `name` of a JSON text, if it is one.
pub(crate) fn from_json_text(body: &str, name: &str) -> Option<String> {
    text(&from_json(body).ok()?, name).map(str::to_owned)
}
