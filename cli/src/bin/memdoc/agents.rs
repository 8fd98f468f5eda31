//! `memdoc init` and `memdoc hook`: the repository and the files they
//! read and write, git and the hub; what they decide and print is the
//! engine's (`memdoc_cli::init`, `memdoc_cli::hook`).

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use clap::{Args, Subcommand};
use memdoc_cli::{hook, hub, init as plan};

use crate::{apply, clock_date, io_kind, read, Body, Client};

/// The commands a coding agent's hooks run.
#[derive(Subcommand)]
pub enum HookCommand {
    /// Print the team memory's prompt block for the agent's context (or,
    /// with --query, the block of what it recalls), within a budget.
    SessionStart {
        #[command(flatten)]
        from: From,
        /// Recall for this task instead of the whole memory.
        #[arg(long, value_name = "TEXT")]
        query: Option<String>,
        /// Code points of the whole block (default 4000).
        #[arg(long, value_name = "N")]
        budget: Option<String>,
    },
    /// Save the entries the agent proposed (standard input) before its
    /// context is compacted.
    PreCompact {
        #[command(flatten)]
        from: From,
    },
    /// Save the entries the agent proposed (standard input) when it stops.
    Stop {
        #[command(flatten)]
        from: From,
    },
}

/// Where the memory is: a file, or a hub's memory.
#[derive(Args)]
pub struct From {
    /// The memory file (for the hooks, MEMORY.md when neither is given).
    #[arg(long, value_name = "FILE", conflicts_with = "hub")]
    file: Option<String>,
    /// A hub's memory instead, its URL and key from the environment.
    #[arg(long, value_name = "TEAM/SCOPE/ID")]
    hub: Option<String>,
}

/// `memdoc init [--file FILE] [--dry-run]`.
pub fn init(file: Option<&str>, dry_run: bool) -> i32 {
    let git = |args: &[&str]| Process::new("git").args(args).output();
    let top = match git(&["rev-parse", "--show-toplevel"]) {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_owned(),
        Ok(o) => {
            return apply(
                "-",
                plan::not_a_repository(&String::from_utf8_lossy(&o.stderr)),
            )
        }
        Err(_) => return apply("-", plan::not_a_repository("git could not be run")),
    };
    let root = PathBuf::from(&top);
    let prefix = git(&["rev-parse", "--show-prefix"])
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let name = file.map_or_else(|| "MEMORY.md".to_owned(), |f| relative(&prefix, f));
    let optional = |path: &str| -> Result<Option<String>, i32> {
        match std::fs::read(root.join(path)) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| apply("-", memdoc_cli::messages::read_failed(path, "not-utf8"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(apply(
                "-",
                memdoc_cli::messages::read_failed(path, io_kind(&e)),
            )),
        }
    };
    let (memory, attributes, precommit) = match (
        optional(&name),
        optional(".gitattributes"),
        optional(".pre-commit-config.yaml"),
    ) {
        (Ok(m), Ok(a), Ok(p)) => (m, a, p),
        (Err(code), _, _) | (_, Err(code), _) | (_, _, Err(code)) => return code,
    };
    let driver = git(&["config", "--get", plan::DRIVER_KEY])
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim_end().to_owned());
    let others: Vec<&str> = plan::OTHER_MEMORIES
        .into_iter()
        .filter(|o| root.join(o).is_file())
        .collect();
    let found = plan::Found {
        file: &name,
        memory: memory.as_deref(),
        attributes: attributes.as_deref(),
        precommit: precommit.as_deref(),
        driver: driver.as_deref(),
        others: &others,
    };
    let planned = plan::init(&found, dry_run);
    for (path, content) in &planned.writes {
        let target = root.join(path);
        if let Err(e) = std::fs::write(&target, content) {
            return apply("-", memdoc_cli::messages::write_failed(path, io_kind(&e)));
        }
    }
    for (key, value) in &planned.config {
        if !git(&["config", key, value]).is_ok_and(|o| o.status.success()) {
            return apply("-", plan::not_a_repository("git config failed"));
        }
    }
    apply("-", planned.outcome)
}

/// `prefix` (git's `--show-prefix`, the folder under the root) and a file
/// named from it, as a path from the root.
fn relative(prefix: &str, file: &str) -> String {
    let mut parts: Vec<&str> = prefix.split('/').filter(|p| !p.is_empty()).collect();
    for part in Path::new(file).iter().filter_map(|p| p.to_str()) {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// `memdoc hook COMMAND`.
pub fn hook(command: HookCommand) -> i32 {
    hook::agent_exit(match command {
        HookCommand::SessionStart {
            from,
            query,
            budget,
        } => {
            let text = match memory(&from) {
                Ok((text, _)) => text,
                Err(code) => return code,
            };
            apply(
                "-",
                hook::session_start(&text, query.as_deref(), budget.as_deref()),
            )
        }
        HookCommand::PreCompact { from } | HookCommand::Stop { from } => propose(&from),
    })
}

/// A hub's memory as read: the client, the memory's path, its revision.
type Read = (Client, String, u64);

/// The memory `from` names, with the hub's client and revision for a hub.
fn memory(from: &From) -> Result<(String, Option<Read>), i32> {
    let Some(target) = &from.hub else {
        return read(from.file.as_deref().unwrap_or("MEMORY.md"))
            .map(|text| (text, None))
            .map_err(|failed| apply("-", failed));
    };
    let [team, scope, id] = hook::hub_target(target).map_err(|failed| apply("-", failed))?;
    let client = client()?;
    let path = hub::Target { team, scope, id }.path("");
    let got = client
        .call("GET", &path, None)
        .map_err(|failed| apply("-", failed))?;
    let (content, revision) =
        hook::hub_memory(got.as_answer()).map_err(|failed| apply("-", failed))?;
    Ok((content, Some((client, path, revision))))
}

fn client() -> Result<Client, i32> {
    let url = std::env::var("MEMDOC_HUB_URL").ok();
    let credential = hub::Credential::of("push");
    let key = std::env::var(credential.variable()).ok();
    if let Some(failed) = hub::missing(url.as_deref(), key.as_deref(), credential) {
        return Err(apply("-", failed));
    }
    Ok(Client {
        base: hub::base(url.as_deref().unwrap_or_default()).to_owned(),
        key: key.unwrap_or_default(),
    })
}

/// `memdoc hook stop|pre-compact`: the proposal on standard input, saved.
fn propose(from: &From) -> i32 {
    let stdin = match read("-") {
        Ok(text) => text,
        Err(failed) => return apply("-", failed),
    };
    let input = hook::input(&stdin);
    // A transcript that cannot be read adds nothing: the hook still saves
    // what its payload holds.
    let transcript = input
        .transcript
        .as_deref()
        .and_then(|path| std::fs::read_to_string(path).ok());
    let (proposed, skipped) = hook::proposal(&input, transcript.as_deref(), &clock_date());
    if proposed.is_empty() && skipped.is_empty() {
        return 0;
    }
    save(from, &proposed, &hook::not_taken(&skipped), false)
}

/// `proposed` added to the memory `from` names (`missing_is_empty`: a
/// memory file that does not exist yet is created), `notes` printed first.
fn save(from: &From, proposed: &str, notes: &str, missing_is_empty: bool) -> i32 {
    if from.hub.is_none() && missing_is_empty {
        let file = from.file.as_deref().unwrap_or("MEMORY.md");
        if !Path::new(file).exists() {
            return apply(file, hook::save_file(file, "", proposed, notes));
        }
    }
    let (current, hub_memory) = match memory(from) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let Some((client, path, revision)) = hub_memory else {
        let file = from.file.as_deref().unwrap_or("MEMORY.md");
        return apply(file, hook::save_file(file, &current, proposed, notes));
    };
    let content = match hook::added(&path, &current, proposed) {
        Ok(Some(content)) => content,
        Ok(None) => return apply("-", hook::hub_saved_nothing(notes)),
        Err(refused) => return apply("-", refused),
    };
    let tag = format!("\"{revision}\"");
    let body = Body {
        if_match: Some(&tag),
        content_type: "text/markdown; charset=utf-8",
        text: &content,
    };
    match client.call("PUT", &format!("{path}?onConflict=merge"), Some(body)) {
        Ok(answer) => apply("-", hook::hub_saved(answer.as_answer(), notes)),
        Err(failed) => apply("-", failed),
    }
}

/// `memdoc import --from KIND FILE... [--file FILE | --hub T/S/ID] [--dry-run]`.
pub fn import(kind: &str, files: &[String], into: &From, dry_run: bool) -> i32 {
    let mut texts = Vec::new();
    for file in files {
        match read(file) {
            Ok(text) => texts.push((file.as_str(), text)),
            Err(failed) => return apply("-", failed),
        }
    }
    let named: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let imported = match memdoc_cli::import::import(kind, &named, &clock_date()) {
        Ok(imported) => imported,
        Err(failed) => return apply("-", failed),
    };
    if dry_run || (into.file.is_none() && into.hub.is_none()) {
        return apply("-", memdoc_cli::import::shown(&imported));
    }
    save(
        into,
        &imported.content,
        &memdoc_cli::import::report(&imported),
        true,
    )
}
