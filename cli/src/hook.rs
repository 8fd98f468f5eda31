//! `memdoc hook`: the commands a coding agent's hooks run (docs/CLI.md,
//! "Agent hooks"). `session-start` prints the team memory's prompt block
//! (or the block of a recall for a query) within a budget, with how to
//! propose an entry; `stop` and `pre-compact` take the entries an agent
//! proposed (in a fenced `memdoc` block of its reply, or as plain text on
//! standard input) and add them to the memory by the merge rules, then
//! plan the save like every other writer: nothing another writer saved is
//! overwritten (the merge keeps every entry of the current memory; a hub's
//! save is conditional on the revision read, merging what was saved
//! since), and a result the rules refuse is not written.

use std::fmt::Write as _;

use memdoc::store::json::{from_json, Value};
use memdoc::Error;
use memdoc::{
    injection_block, is_valid_date, merge, plan_save, recall, InjectOptions, RecallOptions,
    Recalled, SaveOptions, SaveStatus, Scope, ValidateOptions,
};

use super::file::file_form;
use super::hub::{not_the_hub, ok_json, problem, text, whole, Answer};
use super::messages::option_failed;
use super::{exit, printable, Outcome};

/// The budget of `session-start` when none is given, in code points.
pub const DEFAULT_BUDGET: usize = 4000;

/// The section of proposed entries that name none.
const DEFAULT_SECTION: &str = "Notes";

/// The fence an agent proposes entries in.
const FENCE: &str = "```memdoc";

/// The exit code of a hook command for its agent: an agent takes 2 as an
/// order (Claude Code feeds standard error to the model and keeps it
/// going, at the end of a turn too), so a failure a hook reports once its
/// arguments are parsed (an unreadable memory file, a bad `--budget`) is
/// 1, which agents show and go on.
#[must_use]
pub const fn agent_exit(code: i32) -> i32 {
    if code == exit::USAGE {
        exit::FINDINGS
    } else {
        code
    }
}

/// What the agent reads after the block: how to propose an entry.
const HOW_TO_PROPOSE: &str = "To add something the team should remember (a decision, a convention, a fact about this repository; never a secret or a personal preference), end your reply with a fenced block whose info string is memdoc, holding `## Section` lines and one `- fact` line per entry. It is saved to the team memory when you stop, by the same rules as every other save.";

/// `memdoc hook session-start`: the block of the team memory `text`, or of
/// its recall for `query`, and how to propose an entry, all within
/// `budget` code points (default [`DEFAULT_BUDGET`]).
#[must_use]
pub fn session_start(text: &str, query: Option<&str>, budget: Option<&str>) -> Outcome {
    let budget = match budget {
        None => DEFAULT_BUDGET,
        Some(b) => match b.parse::<usize>().ok().filter(|&n| n >= 1) {
            Some(n) => n,
            None => {
                return option_failed(&Error::InvalidBudget(format!(
                    "{} is not a whole number ≥ 1",
                    memdoc::Quoted(b)
                )))
            }
        },
    };
    let note = HOW_TO_PROPOSE.chars().count() + 2;
    let query = query.unwrap_or("");
    let team = InjectOptions {
        scope: Scope::Team,
        ..InjectOptions::default()
    };
    let whole_block = injection_block(text, &team);
    if query.is_empty() && whole_block.chars().count() + note <= budget {
        return Outcome::printing(printed(&whole_block));
    }
    // A recall whose block fits: the block's tags take what the recalled
    // part cannot, found by trying (they change by a few digits at most).
    let mut room = budget.saturating_sub(note);
    for _ in 0..4 {
        if room == 0 {
            break;
        }
        let recalled = recall(
            text,
            query,
            &RecallOptions {
                scope: Scope::Team,
                budget: room,
                ..RecallOptions::default()
            },
        );
        let block = injection_block(
            &recalled.content,
            &InjectOptions {
                recalled: Some(Recalled {
                    selected: recalled.totals.selected,
                    items: recalled.totals.items,
                }),
                ..team.clone()
            },
        );
        let size = block.chars().count() + note;
        if size <= budget {
            return Outcome::printing(printed(&block));
        }
        room = room.saturating_sub(size - budget);
    }
    Outcome::failing(
        &format!("a budget of {budget} cannot hold the block and how to propose an entry"),
        exit::USAGE,
    )
}

fn printed(block: &str) -> String {
    if block.is_empty() {
        format!("{HOW_TO_PROPOSE}\n")
    } else {
        format!("{block}\n\n{HOW_TO_PROPOSE}\n")
    }
}

/// What a hook's standard input holds: the texts that may carry a
/// proposal, and the agent's transcript to read for more.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    /// Texts to take fenced `memdoc` blocks from.
    pub texts: Vec<String>,
    /// Plain text, not an agent's hook payload: when it has no fenced
    /// block, all of it is the proposal.
    pub plain: bool,
    /// The payload's `transcript_path`.
    pub transcript: Option<String>,
}

/// The hook's standard input: an agent's JSON payload (Claude Code and
/// Codex send one: the reply is `last_assistant_message`, the session's
/// transcript `transcript_path`, read when there is no reply) or plain
/// text.
#[must_use]
pub fn input(stdin: &str) -> Input {
    match from_json(stdin.trim()) {
        Ok(payload @ Value::Object(_)) => {
            let texts: Vec<String> = ["last_assistant_message", "proposal"]
                .iter()
                .filter_map(|k| text(&payload, k).map(str::to_owned))
                .collect();
            // The transcript only when the payload has no reply (Claude
            // Code's PreCompact): a stop reads the reply it ends with, not
            // every proposal the session made (an entry someone removed
            // since would come back).
            let transcript = if texts.is_empty() {
                text(&payload, "transcript_path").map(str::to_owned)
            } else {
                None
            };
            Input {
                texts,
                plain: false,
                transcript,
            }
        }
        _ => Input {
            texts: vec![stdin.to_owned()],
            plain: true,
            transcript: None,
        },
    }
}

/// Every string of a transcript (JSON Lines, one message each) that
/// holds a fenced `memdoc` block; lines that are not JSON are skipped.
fn transcript_texts(transcript: &str) -> Vec<String> {
    fn strings(value: &Value<'_>, out: &mut Vec<String>) {
        match value {
            Value::Str(s) if s.contains(FENCE) => out.push(s.to_string()),
            Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            Value::Object(fields) => fields.iter().for_each(|(_, v)| strings(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for line in transcript.lines().filter(|l| l.contains(FENCE)) {
        if let Ok(value) = from_json(line) {
            strings(&value, &mut out);
        }
    }
    out
}

/// The entries proposed in `input`'s texts (and in `transcript`, the text
/// of the agent's transcript, when the front end could read it), as a
/// memory document: `## Section` lines, and entries, each dated `today`
/// unless it carries its own date; and the lines that are neither, to
/// report.
#[must_use]
pub fn proposal(input: &Input, transcript: Option<&str>, today: &str) -> (String, Vec<String>) {
    let extra = transcript.map(transcript_texts).unwrap_or_default();
    let mut blocks: Vec<&str> = Vec::new();
    for text in input.texts.iter().chain(&extra) {
        let found = fenced(text);
        if found.is_empty() && input.plain {
            blocks.push(text);
        }
        blocks.extend(found);
    }
    let mut doc = String::new();
    let mut skipped = Vec::new();
    let mut section = false;
    for line in blocks.iter().flat_map(|b| b.lines()) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            let _ = writeln!(doc, "\n## {}", title.trim());
            section = true;
            continue;
        }
        let Some(entry) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) else {
            skipped.push(line.to_owned());
            continue;
        };
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        if !section {
            let _ = writeln!(doc, "\n## {DEFAULT_SECTION}");
            section = true;
        }
        let dated = entry
            .split_once(": ")
            .is_some_and(|(date, _)| is_valid_date(date));
        if dated {
            let _ = writeln!(doc, "- {entry}");
        } else {
            let _ = writeln!(doc, "- {today}: {entry}");
        }
    }
    (doc.trim_start().to_owned(), skipped)
}

/// The fenced `memdoc` blocks of `text`, their inside lines.
fn fenced(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(FENCE) {
        let after = &rest[at + FENCE.len()..];
        let Some(body_at) = after.find('\n') else {
            break;
        };
        if !after[..body_at].trim().is_empty() {
            rest = &after[body_at..];
            continue;
        }
        let body = &after[body_at + 1..];
        let end = body.find("\n```").map_or(body.len(), |e| e + 1);
        out.push(&body[..end]);
        rest = &body[end..];
        rest = rest.strip_prefix("```").unwrap_or(rest);
    }
    out
}

/// `current` with `proposed` added by the merge rules (as if each side had
/// added its own: the current memory's entries all stay), planned as a
/// team save: `Ok(new)` (`None` when nothing is new) or the refusal to
/// print. A proposed entry whose text the memory holds already, in any
/// section and of any date, is not added again: one fact, once.
///
/// # Errors
///
/// The refusal: a merge that conflicts, lines of `current` the merge would
/// not keep, or a result the save rules reject.
pub fn added(file: &str, current: &str, proposed: &str) -> Result<Option<String>, Outcome> {
    let held = memdoc::parse(current);
    let known: Vec<&str> = held.entries().map(|e| e.text.as_ref()).collect();
    let new: String = proposed
        .lines()
        .filter(|line| {
            memdoc::parse_entry(line, memdoc::Span::default())
                .is_none_or(|e| !known.contains(&e.text.as_ref()))
        })
        .fold(String::new(), |mut out, line| {
            out.push_str(line);
            out.push('\n');
            out
        });
    let merged = merge("", current, &new);
    let file_p = printable(file);
    if !merged.clean || !merged.dropped.is_empty() {
        return Err(Outcome::failing(
            &format!(
                "{file_p}: the proposed entries were not saved: the memory has lines the merge would not keep, or they conflict (`memdoc fmt {file_p}` shows them)"
            ),
            exit::FINDINGS,
        ));
    }
    if memdoc::parse(&merged.content).entries().count() == held.entries().count() {
        return Ok(None);
    }
    let plan = plan_save(
        &merged.content,
        &SaveOptions {
            validate: ValidateOptions {
                scope: Scope::Team,
                previous: Some(current.to_owned()),
                ..ValidateOptions::default()
            },
            allow_erase: false,
        },
    );
    if plan.status == SaveStatus::Rejected {
        let mut out = Outcome::failing(
            &format!(
                "{file_p}: the proposed entries were not saved: the save rules refuse the result"
            ),
            exit::FINDINGS,
        );
        let checked = super::run::check(
            file,
            &merged.content,
            Some(current),
            Some("team"),
            None,
            false,
            [false; 2],
        );
        out.stderr.push_str(&checked.stdout);
        return Err(out);
    }
    Ok(Some(plan.content))
}

/// How many entries `after` holds that `before` does not, said.
fn count_added(before: &str, after: &str) -> String {
    let n = memdoc::parse(after)
        .entries()
        .count()
        .saturating_sub(memdoc::parse(before).entries().count());
    format!("{n} {}", if n == 1 { "entry" } else { "entries" })
}

/// `memdoc hook stop|pre-compact --file FILE` (and `memdoc import --into
/// FILE`): the file with the proposed entries, or the refusal; `notes`
/// (what was not taken) is printed first.
#[must_use]
pub fn save_file(file: &str, current: &str, proposed: &str, notes: &str) -> Outcome {
    let mut out = match added(file, current, proposed) {
        Err(refused) => refused,
        Ok(None) => Outcome {
            stderr: format!(
                "memdoc: {}: holds every proposed entry already\n",
                printable(file)
            ),
            ..Outcome::default()
        },
        Ok(Some(content)) => {
            let form = file_form(&content);
            let changed = form != current;
            Outcome {
                stderr: format!(
                    "memdoc: {}: added {}\n",
                    printable(file),
                    count_added(current, &content)
                ),
                write: changed.then_some(form),
                ..Outcome::default()
            }
        }
    };
    out.stderr.insert_str(0, notes);
    out
}

/// The proposal's lines that are neither headings nor entries, reported.
#[must_use]
pub fn not_taken(skipped: &[String]) -> String {
    skipped.iter().fold(String::new(), |mut out, line| {
        let _ = writeln!(
            out,
            "memdoc: hook: not an entry, not saved: {}",
            printable(line)
        );
        out
    })
}

/// The memory a hub answered (`GET` of it): its content and revision, or
/// the problem to print.
///
/// # Errors
///
/// The hub's problem, or an answer that is not the hub's.
pub fn hub_memory(answer: Answer<'_>) -> Result<(String, u64), Outcome> {
    let body = ok_json(answer).ok_or_else(|| problem(answer))?;
    match (text(&body, "content"), whole(&body, "revision")) {
        (Some(content), Some(revision)) => Ok((content.to_owned(), revision)),
        _ => Err(not_the_hub(answer)),
    }
}

/// The proposal added nothing new to the hub's memory.
#[must_use]
pub fn hub_saved_nothing(notes: &str) -> Outcome {
    Outcome {
        stderr: format!("{notes}memdoc: hub: the memory holds every proposed entry already\n"),
        ..Outcome::default()
    }
}

/// What a hub answered to the save of the proposed entries (`PUT` with
/// `If-Match` of the revision read and `?onConflict=merge`).
#[must_use]
pub fn hub_saved(answer: Answer<'_>, notes: &str) -> Outcome {
    let mut out = match ok_json(answer).and_then(|b| whole(&b, "revision")) {
        Some(revision) => Outcome {
            stderr: format!("memdoc: hub: saved the proposed entries as revision {revision}\n"),
            ..Outcome::default()
        },
        None => problem(answer),
    };
    out.stderr.insert_str(0, notes);
    out
}

/// `--hub TEAM/SCOPE/ID`, split.
///
/// # Errors
///
/// A usage failure when it is not three parts.
pub fn hub_target(value: &str) -> Result<[&str; 3], Outcome> {
    let parts: Vec<&str> = value.split('/').collect();
    match parts[..] {
        [team, scope, id] if !team.is_empty() && !scope.is_empty() && !id.is_empty() => {
            Ok([team, scope, id])
        }
        _ => Err(Outcome::failing(
            &format!(
                "--hub {}: give the memory as TEAM/SCOPE/ID, e.g. acme/team/product",
                printable(value)
            ),
            exit::USAGE,
        )),
    }
}
