//! The commands on files, once the front end has read them: each takes the
//! texts and the option values as the command line gave them (strings: the
//! engine checks them, so both front ends refuse the same values with the
//! same words) and answers an [`Outcome`].

use std::fmt::Write as _;

use memdoc::thousands;
use memdoc::Error;
use memdoc::Quoted;
use memdoc::{
    compact as compact_text, expire as expire_text, injection_block, parse, prepare_recall,
    CompactOptions, ExpireOptions, InjectOptions, RecallOptions, Scope, ValidateOptions,
};

use super::check::{Format, Style};
use super::file::{file_form, with_final_break};
use super::messages::option_failed;
use super::{exit, printable, Outcome};

/// `memdoc check` of one file: `previous` is the text it is compared with
/// (`--previous`, `--previous-rev`), `scope` and `format` as given (`None`:
/// the defaults, `user` and `human`), `deny` what fails besides errors:
/// `[--deny-warnings, --deny-losses]`.
#[must_use]
pub fn check(
    file: &str,
    text: &str,
    previous: Option<&str>,
    scope: Option<&str>,
    format: Option<&str>,
    colour: bool,
    [deny_warnings, deny_losses]: [bool; 2],
) -> Outcome {
    let parsed = (|| -> Result<(Scope, Format), Error> {
        Ok((
            scope.map_or(Ok(Scope::User), str::parse)?,
            format.map_or(Ok(Format::Human), str::parse)?,
        ))
    })();
    let (scope, format) = match parsed {
        Ok(both) => both,
        Err(error) => return option_failed(&error),
    };
    let options = ValidateOptions {
        scope,
        previous: previous.map(str::to_owned),
        ..ValidateOptions::default()
    };
    let style = Style {
        format,
        colour,
        deny_warnings,
        deny_losses,
    };
    let checked = super::check::check(file, text, &options, style);
    Outcome {
        stdout: checked.output,
        exit: if checked.failed {
            exit::FINDINGS
        } else {
            exit::OK
        },
        ..Outcome::default()
    }
}

/// `memdoc fmt` of one file: its file form written back when it differs,
/// or printed (`to_stdout`, the file `-`); with `check`, nothing written,
/// the diff printed and exit 1 when it differs. Lines before the first
/// heading, which the canonical form does not keep, are dropped only with
/// `drop_preamble` (each reported); without it the file is left as it is
/// (printed as it is for `-`), each line is reported, and the exit is 1:
/// `fmt` never drops text unless asked. A file rewritten says so.
#[must_use]
pub fn fmt(file: &str, text: &str, check: bool, to_stdout: bool, drop_preamble: bool) -> Outcome {
    let form = file_form(text);
    let mut out = Outcome::default();
    if check {
        out.stdout = super::diff::unified(file, text, &form);
        if !out.stdout.is_empty() {
            out.exit = exit::FINDINGS;
        }
        return out;
    }
    let file = printable(file);
    let preamble = parse(text).preamble;
    for raw in &preamble {
        let _ = writeln!(
            out.stderr,
            "memdoc: {file}: {} a line before the first heading: {}",
            if drop_preamble {
                "dropped"
            } else {
                "would drop"
            },
            Quoted(raw.text.trim_end())
        );
    }
    if !preamble.is_empty() && !drop_preamble {
        let _ = writeln!(
            out.stderr,
            "memdoc: {file}: left as it is: move those lines under a heading, or pass --drop-preamble to drop them"
        );
        out.exit = exit::FINDINGS;
        if to_stdout {
            text.clone_into(&mut out.stdout);
        }
        return out;
    }
    if to_stdout {
        out.stdout = form;
    } else if form != text {
        let _ = writeln!(out.stderr, "memdoc: {file}: reformatted");
        out.write = Some(form);
    }
    out
}

/// The last line of `memdoc fmt` on files (not `-`): how many were
/// reformatted, left unchanged, and left as they are because formatting
/// would drop text, e.g. `memdoc: 1 file reformatted, 2 files left
/// unchanged`.
#[must_use]
pub fn fmt_summary(reformatted: usize, unchanged: usize, refused: usize) -> String {
    let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
    let parts: Vec<String> = [
        (reformatted, "reformatted"),
        (unchanged, "left unchanged"),
        (refused, "not reformatted (text would be dropped)"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{} {what}", files(n)))
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("memdoc: {}\n", parts.join(", "))
    }
}

/// `memdoc merge BASE OURS THEIRS [PATH]` (git's `%O %A %B %P`): the merged
/// memory for OURS, exit 1 when it has conflicts; `file` names the memory
/// (PATH, or OURS) in the messages.
#[must_use]
pub fn merge(file: &str, base: &str, ours: &str, theirs: &str) -> Outcome {
    let merged = super::markers::merged(file, base, ours, theirs);
    Outcome {
        stdout: String::new(),
        stderr: merged.summary,
        write: Some(merged.content),
        exit: if merged.clean {
            exit::OK
        } else {
            exit::FINDINGS
        },
    }
}

/// A whole number option (`--budget`, `--to`), as given.
fn whole(value: &str, error: fn(String) -> Error) -> Result<usize, Error> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| error(format!("{} is not a whole number ≥ 1", Quoted(value))))
}

/// `--scope team|user` (default user), or the failure (exit 2).
fn scope_of(scope: Option<&str>) -> Result<Scope, Outcome> {
    scope.map_or(Ok(Scope::User), |s| {
        s.parse::<Scope>().map_err(|error| option_failed(&error))
    })
}

/// How `memdoc recall` recalls: by meaning too, with an embedder's vectors
/// (the front end found its files and embedded the query and each item of
/// [`memdoc::PreparedRecall::items`]), or by words only.
#[derive(Debug, Clone, Copy)]
pub enum Meaning<'a> {
    /// By meaning and by words, with these vectors.
    Vectors(memdoc::RecallVectors<'a>),
    /// By words only, as asked (`--embedder none`).
    WordsAsked,
    /// By words only: the files of the embedder named (`static`, `minilm`,
    /// `e5`, or `any` when none was asked for) were not found.
    NoFiles(&'a str),
}

/// `memdoc recall FILE QUESTION [--scope S] [--budget N] [--explain]
/// [--trace]`: the recalled part, with `explain` why each item was taken or
/// left out and how it was recalled (`meaning`), with `trace` the items
/// left out and why. Without an embedder's files, a line on standard error
/// says how to get them.
#[must_use]
pub fn recall(
    text: &str,
    question: &str,
    scope: Option<&str>,
    budget: Option<&str>,
    [explain, trace]: [bool; 2],
    meaning: Meaning<'_>,
) -> Outcome {
    let mut options = RecallOptions::default();
    match scope_of(scope) {
        Ok(scope) => options.scope = scope,
        Err(failed) => return failed,
    }
    if let Some(budget) = budget {
        match whole(budget, Error::InvalidBudget) {
            Ok(n) => options.budget = n,
            Err(error) => return option_failed(&error),
        }
    }
    let vectors = match &meaning {
        Meaning::Vectors(vectors) => Some(vectors),
        _ => None,
    };
    let recalled = match prepare_recall(text, question, &options).and_then(|p| p.finish(vectors)) {
        Ok(recalled) => recalled,
        Err(error) => return option_failed(&error),
    };
    let mut stdout = with_final_break(recalled.content.clone());
    if explain {
        stdout.push('\n');
        stdout.push_str(&super::explain::explain(&recalled));
        match meaning {
            Meaning::Vectors(v) => {
                let _ = writeln!(stdout, "# by meaning ({}) and by words", v.embedder);
            }
            _ => stdout.push_str("# by words only\n"),
        }
    }
    if trace {
        stdout.push('\n');
        stdout.push_str(&super::trace::trace(&recalled));
    }
    let mut outcome = Outcome::printing(stdout);
    if let Meaning::NoFiles(embedder) = meaning {
        outcome.stderr = super::messages::no_embedder(embedder);
    }
    outcome
}

/// `memdoc compact FILE --to N [--scope S]`: the compacted memory, and on
/// standard error what was merged and removed; exit 1 when it does not fit.
#[must_use]
pub fn compact(file: &str, text: &str, to: &str, scope: Option<&str>) -> Outcome {
    let target = match whole(to, Error::InvalidTarget) {
        Ok(n) => n,
        Err(error) => return option_failed(&error),
    };
    let scope = match scope_of(scope) {
        Ok(scope) => scope,
        Err(failed) => return failed,
    };
    let done = compact_text(
        text,
        &CompactOptions {
            scope,
            target,
            ..CompactOptions::default()
        },
    );
    let file = printable(file);
    let mut stderr = String::new();
    for m in &done.merged {
        let _ = writeln!(
            stderr,
            "memdoc: {file}: merged section {} into {}",
            Quoted(&m.from),
            Quoted(&m.into)
        );
    }
    for r in &done.removed {
        let _ = writeln!(
            stderr,
            "memdoc: {file}: removed ({}) [{}] {}: {}",
            r.reason.as_str(),
            printable(&r.section),
            r.date,
            printable(&r.text)
        );
    }
    let _ = writeln!(
        stderr,
        "memdoc: {file}: {} → {} characters (target {}){}",
        thousands(done.before),
        thousands(done.after),
        thousands(done.target),
        if done.fits { "" } else { ": does not fit" }
    );
    Outcome {
        stdout: with_final_break(done.content),
        stderr,
        write: None,
        exit: if done.fits { exit::OK } else { exit::FINDINGS },
    }
}

/// `memdoc expire FILE --policy "SECTION=DAYS"... [--today DATE]`: the
/// memory without its expired entries, each expired entry on standard
/// error. `today` is the front end's `--today` or the clock's date.
#[must_use]
pub fn expire(file: &str, text: &str, policies: &[&str], today: &str) -> Outcome {
    let options = (|| -> Result<ExpireOptions, Error> {
        let options = ExpireOptions {
            today: today.to_owned(),
            policies: policies
                .iter()
                .map(|p| super::policy::policy(p))
                .collect::<Result<_, _>>()?,
        };
        options.check()?;
        Ok(options)
    })();
    let options = match options {
        Ok(options) => options,
        Err(error) => return option_failed(&error),
    };
    let done = expire_text(text, &options);
    let mut stderr = String::new();
    for e in &done.archived {
        let _ = writeln!(
            stderr,
            "memdoc: {}: expired [{}] {}: {}",
            printable(file),
            printable(&e.section),
            e.date,
            printable(&e.text)
        );
    }
    Outcome {
        stdout: with_final_break(done.content),
        stderr,
        ..Outcome::default()
    }
}

/// `memdoc prompt FILE --scope team|user`: the block an agent sees.
#[must_use]
pub fn prompt(text: &str, scope: &str) -> Outcome {
    match scope.parse::<Scope>() {
        Ok(scope) => {
            let block = injection_block(
                text,
                &InjectOptions {
                    scope,
                    ..InjectOptions::default()
                },
            );
            Outcome::printing(with_final_break(block))
        }
        Err(error) => option_failed(&error),
    }
}
