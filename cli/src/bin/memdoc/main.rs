//! `memdoc`, the command line of memdoc (docs/CLI.md): check, format and
//! merge memory documents (a git merge driver), recall, compact, expire,
//! the prompt block, and the hub over its REST API.
//!
//! This binary parses its arguments (clap), reads and writes files, runs
//! git and makes the hub's HTTP requests; everything it prints, writes and
//! exits with comes from the engine (`memdoc_cli`), which the npm
//! package's bin (`pkg-template/cli.js`) calls too, so both print the same.
#![forbid(unsafe_code)]
#![warn(clippy::pedantic)]

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use memdoc_cli::{exit, messages, run, Outcome};

mod agents;
mod args;
mod embedder;
#[cfg(test)]
mod help_file;
mod hub;
mod hub_admin;
mod language;

use args::{Cli, Command};
use hub::{hub_command, Body, Client};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check {
            scope,
            previous,
            previous_rev,
            format,
            deny_warnings,
            deny_losses,
            files,
        } => check(
            &files,
            scope.as_deref(),
            previous.as_deref(),
            previous_rev.as_deref(),
            format.as_deref(),
            [deny_warnings, deny_losses],
        ),
        Command::Fmt {
            check,
            drop_preamble,
            files,
        } => fmt(&files, check, drop_preamble),
        Command::Merge {
            base,
            ours,
            theirs,
            path,
        } => match (read(&base), read(&ours), read(&theirs)) {
            (Ok(b), Ok(o), Ok(t)) => apply(
                &ours,
                run::merge(path.as_deref().unwrap_or(&ours), &b, &o, &t),
            ),
            (Err(failed), _, _) | (_, Err(failed), _) | (_, _, Err(failed)) => apply("-", failed),
        },
        Command::Recall {
            file,
            question,
            scope,
            budget,
            explain,
            trace,
            embedder,
        } => each(&[file], |_, text| {
            embedder::recall(text, &question, embedder.as_deref(), |meaning| {
                run::recall(
                    text,
                    &question,
                    scope.as_deref(),
                    budget.as_deref(),
                    [explain, trace],
                    meaning,
                )
            })
        }),
        Command::Compact { file, to, scope } => each(&[file], |file, text| {
            run::compact(file, text, &to, scope.as_deref())
        }),
        Command::Expire {
            file,
            policies,
            today,
        } => {
            let today = today.unwrap_or_else(clock_date);
            let policies: Vec<&str> = policies.iter().map(String::as_str).collect();
            each(&[file], |file, text| {
                run::expire(file, text, &policies, &today)
            })
        }
        Command::Prompt { file, scope } => each(&[file], |_, text| run::prompt(text, &scope)),
        Command::Init { file, dry_run } => agents::init(file.as_deref(), dry_run),
        Command::Hook { command } => agents::hook(command),
        Command::Import {
            from,
            into,
            dry_run,
            files,
        } => agents::import(&from, &files, &into, dry_run),
        Command::Hub { command } => hub_command(command),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// Today's UTC date, from the clock.
fn clock_date() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    memdoc_cli::policy::utc_date(seconds)
}

/// The text of `file` (`-`: standard input), or the failure to report.
fn read(file: &str) -> Result<String, Outcome> {
    let bytes = if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        std::fs::read(file)
    };
    let bytes = bytes.map_err(|e| messages::read_failed(file, io_kind(&e)))?;
    String::from_utf8(bytes).map_err(|_| messages::read_failed(file, "not-utf8"))
}

/// The engine's name for how an I/O call failed.
fn io_kind(error: &std::io::Error) -> &'static str {
    match error.kind() {
        std::io::ErrorKind::NotFound => "not-found",
        std::io::ErrorKind::PermissionDenied => "permission-denied",
        std::io::ErrorKind::IsADirectory => "is-a-directory",
        _ => "other",
    }
}

/// Print an outcome, write its file, and answer its exit code.
fn apply(file: &str, outcome: Outcome) -> i32 {
    apply_with(file, outcome, |file, content| std::fs::write(file, content))
}

/// Write a file that holds secrets (an export holds every key's hash and
/// user memories): created readable by its owner alone (0600), and made so
/// before anything is written when it was there already (docs/CLI.md).
fn write_secret(file: &str, content: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(file)?;
    #[cfg(unix)]
    f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    f.write_all(content.as_bytes())
}

/// `apply`, writing the file with `write`.
#[allow(clippy::needless_pass_by_value)] // each outcome is applied once
fn apply_with(file: &str, outcome: Outcome, write: fn(&str, &str) -> std::io::Result<()>) -> i32 {
    let mut exit = outcome.exit;
    if let Some(content) = &outcome.write {
        if let Err(e) = write(file, content) {
            let failed = messages::write_failed(file, io_kind(&e));
            print(&failed);
            exit = exit.max(failed.exit);
        }
    }
    print(&outcome);
    exit
}

fn print(outcome: &Outcome) {
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
}

/// Run `command` on each file in turn; the highest exit code.
fn each(files: &[String], command: impl Fn(&str, &str) -> Outcome) -> i32 {
    files
        .iter()
        .map(|file| match read(file) {
            Ok(text) => apply(file, command(file, &text)),
            Err(failed) => apply(file, failed),
        })
        .max()
        .unwrap_or(exit::OK)
}

/// `memdoc fmt`: each file, then (files written in place) how many were
/// reformatted, left unchanged, or left as they are.
fn fmt(files: &[String], check: bool, drop_preamble: bool) -> i32 {
    let mut counts = [0; 3];
    let mut worst = exit::OK;
    for file in files {
        let outcome = match read(file) {
            Ok(text) => run::fmt(file, &text, check, file == "-", drop_preamble),
            Err(failed) => failed,
        };
        if !check && file != "-" {
            match (&outcome.write, outcome.exit) {
                (Some(_), _) => counts[0] += 1,
                (None, exit::OK) => counts[1] += 1,
                (None, exit::FINDINGS) => counts[2] += 1,
                _ => {}
            }
        }
        worst = worst.max(apply(file, outcome));
    }
    let _ =
        std::io::stderr().write_all(run::fmt_summary(counts[0], counts[1], counts[2]).as_bytes());
    worst
}

fn check(
    files: &[String],
    scope: Option<&str>,
    previous: Option<&str>,
    previous_rev: Option<&str>,
    format: Option<&str>,
    deny: [bool; 2],
) -> i32 {
    let previous = match previous.map(read).transpose() {
        Ok(previous) => previous,
        Err(failed) => return apply("-", failed),
    };
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut worst = exit::OK;
    for file in files {
        let text = match read(file) {
            Ok(text) => text,
            Err(failed) => {
                worst = worst.max(apply(file, failed));
                continue;
            }
        };
        let committed = match previous_rev {
            None => previous.clone(),
            Some(rev) => match committed(rev, file) {
                Ok(committed) => committed,
                Err(failed) => {
                    worst = worst.max(apply(file, failed));
                    continue;
                }
            },
        };
        let outcome = run::check(
            file,
            &text,
            committed.as_deref(),
            scope,
            format,
            colour,
            deny,
        );
        worst = worst.max(apply(file, outcome));
    }
    worst
}

/// `file` as committed in `rev` (`git show REV:./NAME` in the file's
/// folder); `None` when the revision exists but does not have the file (a
/// new file has no diff rules to break).
fn committed(rev: &str, file: &str) -> Result<Option<String>, Outcome> {
    let path = Path::new(file);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
    };
    let shown = git(&["show", &format!("{rev}:./{name}")])
        .map_err(|_| messages::git_failed(rev, file, "git could not be run"))?;
    if shown.status.success() {
        return String::from_utf8(shown.stdout)
            .map(Some)
            .map_err(|_| messages::read_failed(file, "not-utf8"));
    }
    let exists = git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{rev}^{{commit}}"),
    ])
    .is_ok_and(|o| o.status.success());
    if exists {
        Ok(None)
    } else {
        Err(messages::git_failed(
            rev,
            file,
            &String::from_utf8_lossy(&shown.stderr),
        ))
    }
}
