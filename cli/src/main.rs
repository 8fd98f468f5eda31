//! `memdoc`, the command line of memdoc (docs/CLI.md): check, format and
//! merge memory documents (a git merge driver), recall, compact, expire,
//! the prompt block, and the hub over its REST API.
//!
//! This binary parses its arguments (clap), reads and writes files, runs
//! git and makes the hub's HTTP requests; everything it prints, writes and
//! exits with comes from the engine (`memdoc::cli`), which the npm
//! package's bin (`pkg-template/cli.js`) calls too, so both print the same.
#![forbid(unsafe_code)]
#![warn(clippy::pedantic)]

use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use memdoc::cli::{exit, hub, messages, run, Outcome};

mod agents;
mod hub_admin;

/// Check, format and merge memory documents; recall, compact and expire
/// them; read and save them on a memdoc hub.
#[derive(Parser)]
#[command(name = "memdoc", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate memory files: exit 1 on errors (or warnings with
    /// --deny-warnings, losses with --deny-losses), 2 on a usage error or an
    /// unreadable file.
    Check {
        /// Whose memory the files are: team or user (default user).
        #[arg(long, value_name = "team|user")]
        scope: Option<String>,
        /// The stored version to check the diff rules against (removed
        /// sections, shrinkage).
        #[arg(long, value_name = "FILE", conflicts_with = "previous_rev")]
        previous: Option<String>,
        /// Check the diff rules against each file as committed in this git
        /// revision (e.g. HEAD).
        #[arg(long, value_name = "GIT_REV")]
        previous_rev: Option<String>,
        /// Output format: human, json (one object per file) or github
        /// (Actions annotations).
        #[arg(long, value_name = "human|json|github")]
        format: Option<String>,
        /// Warnings fail the check too.
        #[arg(long)]
        deny_warnings: bool,
        /// What a file loses fails the check: a removed section, shrinkage
        /// below 40% of the previous version, dropped lines before the
        /// first heading.
        #[arg(long)]
        deny_losses: bool,
        /// The files (`-`: standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Rewrite memory files in their canonical form (`-`: standard input to
    /// standard output).
    Fmt {
        /// Change nothing: print a unified diff and exit 1 when a file is
        /// not canonical.
        #[arg(long)]
        check: bool,
        /// Drop the lines before the first heading (without it, a file
        /// that has some is left as it is, and the exit code is 1).
        #[arg(long)]
        drop_preamble: bool,
        /// The files (`-`: standard input).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Three-way merge for git (`memdoc merge %O %A %B %P`): the result is
    /// written to OURS; exit 1 with conflict markers when it has conflicts.
    Merge {
        /// The common ancestor (%O).
        base: String,
        /// Our version, overwritten with the result (%A).
        ours: String,
        /// Their version (%B).
        theirs: String,
        /// The memory's path in the repository, which the messages name
        /// (%P; default: OURS).
        path: Option<String>,
    },
    /// The part of a memory that best answers a question, within a budget.
    Recall {
        /// The memory file.
        file: String,
        /// The question.
        question: String,
        /// Whose memory the file is: team or user (default user).
        #[arg(long, value_name = "team|user")]
        scope: Option<String>,
        /// Code points of the recalled part (default 4000).
        #[arg(long, value_name = "N")]
        budget: Option<String>,
        /// Also print why each item was taken or left out.
        #[arg(long)]
        explain: bool,
        /// Also print the items left out, best first, and why (budget,
        /// no-match, ...).
        #[arg(long)]
        trace: bool,
    },
    /// Compact a memory to a size, removing duplicates and the oldest
    /// entries first (each removal on standard error).
    Compact {
        /// The memory file.
        file: String,
        /// The target size in code points.
        #[arg(long, required = true, value_name = "N")]
        to: String,
        /// Whose memory the file is: team or user (default user).
        #[arg(long, value_name = "team|user")]
        scope: Option<String>,
    },
    /// Remove the entries older than their section's policy (each on
    /// standard error).
    Expire {
        /// The memory file.
        file: String,
        /// A policy `SECTION=DAYS` (repeatable).
        #[arg(long = "policy", required = true, value_name = "SECTION=DAYS")]
        policies: Vec<String>,
        /// The date ages count to (default: today, UTC).
        #[arg(long, value_name = "YYYY-MM-DD")]
        today: Option<String>,
    },
    /// The block an agent sees in its prompt.
    Prompt {
        /// The memory file.
        file: String,
        /// team or user.
        #[arg(long, required = true, value_name = "team|user")]
        scope: String,
    },
    /// Set up this git repository's team memory: the file, the merge
    /// driver, the pre-commit hooks (idempotent).
    Init {
        /// The memory file (default MEMORY.md at the repository's root).
        #[arg(long, value_name = "FILE")]
        file: Option<String>,
        /// Change nothing: print everything it would write.
        #[arg(long)]
        dry_run: bool,
    },
    /// The commands a coding agent's hooks run (docs/CLI.md, "Agent
    /// hooks").
    Hook {
        #[command(subcommand)]
        command: agents::HookCommand,
    },
    /// Import memories from another tool's format (mcp-memory, claude-md,
    /// basic-memory, mem0): printed, or added to a memory file or a hub's
    /// memory by the merge rules.
    Import {
        /// The format: mcp-memory, claude-md, basic-memory or mem0.
        #[arg(long, required = true, value_name = "KIND")]
        from: String,
        #[command(flatten)]
        into: agents::From,
        /// Change nothing: print the imported memory and what was not
        /// imported.
        #[arg(long)]
        dry_run: bool,
        /// The files to import.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// A memdoc hub, its URL and key from the environment (docs/CLI.md).
    Hub {
        #[command(subcommand)]
        command: HubCommand,
    },
}

#[derive(Subcommand)]
enum HubCommand {
    /// Read a memory: to a file (then its revision on standard output) or
    /// to standard output.
    Pull {
        /// The team id.
        team: String,
        /// team or user.
        scope: String,
        /// The memory id (for user: the member id).
        id: String,
        /// Write the memory to this file.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<String>,
    },
    /// Save a file as the memory's next revision (exit 1 when the hub has
    /// moved on, with who saved what and how to merge).
    Push {
        /// The memory file.
        file: String,
        /// The team id.
        team: String,
        /// team or user.
        scope: String,
        /// The memory id (for user: the member id).
        id: String,
        /// The revision the file was pulled at (0 for a new memory).
        #[arg(long, required = true, value_name = "N")]
        revision: String,
        /// Merge with what was saved since, instead of failing.
        #[arg(long)]
        merge: bool,
    },
    /// The memory's revisions, newest first.
    History {
        /// The team id.
        team: String,
        /// team or user.
        scope: String,
        /// The memory id (for user: the member id).
        id: String,
    },
    /// The whole team as the hub exports it (an admin key): to a file or
    /// to standard output.
    Export {
        /// The team id.
        team: String,
        /// Write the export to this file.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<String>,
    },
    /// Make a team from an export, with the hub's operator token (from the
    /// environment); the team must not exist.
    Import {
        /// The export.
        file: String,
        /// The team id (the export's own).
        team: String,
    },
    /// Make a team (the hub's operator token).
    Team {
        #[command(subcommand)]
        command: hub_admin::TeamCommand,
    },
    /// Make, revoke and rotate a team's keys (an admin key).
    Key {
        #[command(subcommand)]
        command: hub_admin::KeyCommand,
    },
    /// Disable and enable a team's members (an admin key).
    Member {
        #[command(subcommand)]
        command: hub_admin::MemberCommand,
    },
}

impl HubCommand {
    fn name(&self) -> &'static str {
        match self {
            Self::Pull { .. } => "pull",
            Self::Push { .. } => "push",
            Self::History { .. } => "history",
            Self::Export { .. } => "export",
            Self::Import { .. } => "import",
            Self::Team { .. } | Self::Key { .. } | Self::Member { .. } => "",
        }
    }
}

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
        } => each(&[file], |_, text| {
            run::recall(
                text,
                &question,
                scope.as_deref(),
                budget.as_deref(),
                explain,
                trace,
            )
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
    memdoc::cli::policy::utc_date(seconds)
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
        && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty());
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

fn hub_command(command: HubCommand) -> i32 {
    let command = match command {
        HubCommand::Team { command } => return admin_command(&command.into()),
        HubCommand::Key { command } => return admin_command(&command.into()),
        HubCommand::Member { command } => return admin_command(&command.into()),
        other => other,
    };
    let client = match Client::from_env(command.name()) {
        Ok(client) => client,
        Err(failed) => return apply("-", failed),
    };
    match command {
        HubCommand::Pull {
            team,
            scope,
            id,
            output,
        } => {
            let target = hub::Target {
                team: &team,
                scope: &scope,
                id: &id,
            };
            let file = output.as_deref();
            match client.call("GET", &target.path(""), None) {
                Ok(answer) => apply(file.unwrap_or("-"), hub::pulled(file, answer.as_answer())),
                Err(failed) => apply("-", failed),
            }
        }
        HubCommand::Push {
            file,
            team,
            scope,
            id,
            revision,
            merge,
        } => {
            let text = match read(&file) {
                Ok(text) => text,
                Err(failed) => return apply("-", failed),
            };
            let tag = match hub::if_match(&revision) {
                Ok(tag) => tag,
                Err(failed) => return apply("-", failed),
            };
            let target = hub::Target {
                team: &team,
                scope: &scope,
                id: &id,
            };
            let push = hub::Push {
                file: &file,
                text: &text,
                target,
                revision: &revision,
                merge,
            };
            let query = if merge { "?onConflict=merge" } else { "" };
            let put = match client.call(
                "PUT",
                &format!("{}{query}", target.path("")),
                Some(Body {
                    if_match: Some(&tag),
                    content_type: "text/markdown; charset=utf-8",
                    text: &text,
                }),
            ) {
                Ok(put) => put,
                Err(failed) => return apply("-", failed),
            };
            let current = if hub::needs_current(put.as_answer()) {
                client.call("GET", &target.path(""), None).ok()
            } else {
                None
            };
            let outcome = hub::pushed(
                &push,
                put.as_answer(),
                current.as_ref().map(Owned::as_answer),
            );
            apply(&file, outcome)
        }
        HubCommand::History { team, scope, id } => {
            let target = hub::Target {
                team: &team,
                scope: &scope,
                id: &id,
            };
            match client.call("GET", &target.path("/history"), None) {
                Ok(answer) => apply("-", hub::history(answer.as_answer())),
                Err(failed) => apply("-", failed),
            }
        }
        HubCommand::Export { team, output } => export(&client, &team, output.as_deref()),
        HubCommand::Import { file, team } => import(&client, &file, &team),
        HubCommand::Team { .. } | HubCommand::Key { .. } | HubCommand::Member { .. } => {
            unreachable!("admin_command runs these")
        }
    }
}

/// `memdoc hub team|key|member …`.
fn admin_command(command: &hub_admin::Parsed) -> i32 {
    match Client::from_env(command.name()) {
        Ok(client) => hub_admin::run(&client, command),
        Err(failed) => apply("-", failed),
    }
}

/// `memdoc hub export`.
fn export(client: &Client, team: &str, file: Option<&str>) -> i32 {
    match client.call("GET", &hub::team_path(team, "/export"), None) {
        Ok(answer) => apply_with(
            file.unwrap_or("-"),
            hub::exported(file, team, answer.as_answer()),
            write_secret,
        ),
        Err(failed) => apply("-", failed),
    }
}

/// `memdoc hub import`.
fn import(client: &Client, file: &str, team: &str) -> i32 {
    let text = match read(file) {
        Ok(text) => text,
        Err(failed) => return apply("-", failed),
    };
    let body = Body {
        if_match: None,
        content_type: "application/x-ndjson",
        text: &text,
    };
    match client.call("POST", &hub::team_path(team, "/import"), Some(body)) {
        Ok(answer) => apply("-", hub::imported(file, answer.as_answer())),
        Err(failed) => apply("-", failed),
    }
}

/// A request's body: its text, its media type and its `If-Match`.
struct Body<'a> {
    if_match: Option<&'a str>,
    content_type: &'a str,
    text: &'a str,
}

/// The hub's URL and key.
struct Client {
    base: String,
    key: String,
}

/// An answer of the hub, owned.
struct Owned {
    status: u16,
    body: String,
    retry_after: Option<String>,
}

impl Owned {
    fn as_answer(&self) -> hub::Answer<'_> {
        hub::Answer {
            status: self.status,
            body: &self.body,
            retry_after: self.retry_after.as_deref(),
        }
    }
}

impl Client {
    /// The hub's URL and the credential of `memdoc hub COMMAND`, from the
    /// environment, or which is not set.
    fn from_env(command: &str) -> Result<Self, Outcome> {
        let url = std::env::var("MEMDOC_HUB_URL").ok();
        let credential = hub::Credential::of(command);
        let key = std::env::var(credential.variable()).ok();
        if let Some(failed) = hub::missing(url.as_deref(), key.as_deref(), credential) {
            return Err(failed);
        }
        Ok(Self {
            base: hub::base(url.as_deref().unwrap_or_default()).to_owned(),
            key: key.unwrap_or_default(),
        })
    }

    /// `method` of `path`, with `body` when given; any status is an
    /// answer, a transport failure is not.
    fn call(&self, method: &str, path: &str, body: Option<Body<'_>>) -> Result<Owned, Outcome> {
        let request = ureq::request(method, &format!("{}{path}", self.base))
            .set("authorization", &format!("Bearer {}", self.key))
            .set("user-agent", concat!("memdoc/", env!("CARGO_PKG_VERSION")));
        let sent = match body {
            Some(body) => {
                let request = request.set("content-type", body.content_type);
                match body.if_match {
                    Some(tag) => request.set("if-match", tag),
                    None => request,
                }
                .send_string(body.text)
            }
            None => request.call(),
        };
        let response = match sent {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(ureq::Error::Transport(_)) => return Err(hub::unreachable(&self.base)),
        };
        let status = response.status();
        let retry_after = response.header("retry-after").map(str::to_owned);
        let body = response
            .into_string()
            .map_err(|_| hub::unreachable(&self.base))?;
        Ok(Owned {
            status,
            body,
            retry_after,
        })
    }
}

/// The npm bin (pkg-template/cli.js) prints each command's `--help` from
/// pkg-template/cli-help.json, which is this command's, generated here:
/// `MEMDOC_WRITE_HELP=1 cargo test -p memdoc-cli` writes it, and this test
/// fails while it differs from the clap definitions above.
#[cfg(test)]
mod help_file {
    use std::fmt::Write as _;

    use clap::CommandFactory;

    /// Each command's path (`""`, `check`, `hub team create`, …) and its
    /// `--help`, depth first.
    fn helps(command: &mut clap::Command, path: &str, out: &mut Vec<(String, String)>) {
        out.push((path.to_owned(), command.render_help().to_string()));
        for sub in command.get_subcommands_mut() {
            let name = sub.get_name().to_owned();
            if name != "help" {
                let path = if path.is_empty() {
                    name
                } else {
                    format!("{path} {name}")
                };
                helps(sub, &path, out);
            }
        }
    }

    fn json_string(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if u32::from(c) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn the_npm_bins_help_is_generated_from_the_clap_definitions() {
        let mut command = super::Cli::command();
        command.build();
        let mut entries = Vec::new();
        helps(&mut command, "", &mut entries);
        let body: Vec<String> = entries
            .iter()
            .map(|(path, help)| format!("  {}: {}", json_string(path), json_string(help)))
            .collect();
        let generated = format!("{{\n{}\n}}\n", body.join(",\n"));
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg-template/cli-help.json");
        if std::env::var_os("MEMDOC_WRITE_HELP").is_some() {
            std::fs::write(file, &generated).expect("should write pkg-template/cli-help.json");
        }
        let written = std::fs::read_to_string(file).unwrap_or_default();
        assert!(
            written == generated,
            "pkg-template/cli-help.json differs from the clap definitions: run `MEMDOC_WRITE_HELP=1 cargo test -p memdoc-cli`"
        );
    }
}
