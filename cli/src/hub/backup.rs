//! `memdoc hub export` and `import`: a team's records as one file
//! (`memdoc-team/1`, docs/HUB.md), and what an import brought in.

use super::super::{printable, Outcome};
use memdoc::store::json::from_json;

use super::answer::{not_the_hub, ok_json, problem, problem_of, text, whole};
use super::{Answer, Credential};

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
