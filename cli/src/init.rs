//! `memdoc init`: what a repository needs for a team memory, decided from
//! what it has. The front end reads the repository (the memory file,
//! `.gitattributes`, `.pre-commit-config.yaml`, the merge driver in git's
//! config) and carries out the [`Plan`] (its files and its git settings);
//! every decision and every word is here. Nothing is written twice (a
//! second run finds everything done and changes nothing), an existing memory
//! is never rewritten (its findings and the diff `memdoc fmt` would apply
//! are reported, and the next step says how to apply it), and a file of the
//! user's that init cannot extend safely is left as it is with what to add.

use std::fmt::Write as _;

use super::file::file_form;
use super::{exit, printable, Outcome};

/// The merge driver's git setting and the command it runs.
pub const DRIVER_KEY: &str = "merge.memdoc.driver";
/// The driver's command line (docs/CLI.md, "memdoc merge").
pub const DRIVER: &str = "memdoc merge %O %A %B %P";
/// The driver's name, for git's messages.
pub const NAME_KEY: &str = "merge.memdoc.name";
const NAME: &str = "memdoc: merge memory documents by section and entry";

/// The memory a new repository starts with: valid, empty sections that
/// show the format.
const STARTER: &str = "## Decisions\n\n## Conventions\n";

/// The files that hold an agent's memory elsewhere, which init names in its
/// next steps when the memory file does not exist yet.
pub const OTHER_MEMORIES: [&str; 2] = ["CLAUDE.md", "AGENTS.md"];

/// Not in a git repository (or git failed): `said` is git's first line.
#[must_use]
pub fn not_a_repository(said: &str) -> Outcome {
    let said = said.lines().next().unwrap_or("").trim();
    Outcome::failing(
        &format!(
            "init: run it in a git repository ({})",
            if said.is_empty() { "git failed" } else { said }
        ),
        exit::USAGE,
    )
}

/// What the front end found in the repository.
#[derive(Debug, Clone, Copy)]
pub struct Found<'a> {
    /// The memory file, relative to the repository's root, `/`-separated.
    pub file: &'a str,
    /// Its text, when it exists.
    pub memory: Option<&'a str>,
    /// The root's `.gitattributes`, when it exists.
    pub attributes: Option<&'a str>,
    /// The root's `.pre-commit-config.yaml`, when it exists.
    pub precommit: Option<&'a str>,
    /// `git config merge.memdoc.driver`, when set.
    pub driver: Option<&'a str>,
    /// Which of [`OTHER_MEMORIES`] exist at the root.
    pub others: &'a [&'a str],
}

/// What init does: the files it writes (relative to the root, whole
/// contents), the git settings it makes, and what it prints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// `(path, content)`, in order.
    pub writes: Vec<(String, String)>,
    /// `(key, value)` for `git config`, in order.
    pub config: Vec<(String, String)>,
    /// What it prints and its exit code (its `write` is unused).
    pub outcome: Outcome,
}

/// The plan for a repository as `found`; with `dry_run`, nothing to write
/// and the report says what would be written, in full.
#[must_use]
pub fn init(found: &Found<'_>, dry_run: bool) -> Plan {
    let file = found.file;
    if file.is_empty() || file.chars().any(|c| c.is_whitespace() || c == '"') {
        return Plan {
            outcome: Outcome::failing(
                &format!(
                    "{}: a memory file name for .gitattributes has no spaces or quotes",
                    printable(file)
                ),
                exit::USAGE,
            ),
            ..Plan::default()
        };
    }
    let mut init = Init {
        plan: Plan::default(),
        out: String::new(),
        dry_run,
        next: Vec::new(),
    };
    init.memory(found);
    init.attribute(found);
    init.driver(found);
    init.precommit(found);
    init.next_steps(found);
    init.plan.outcome.stdout = init.out;
    init.plan
}

/// The plan being made and its report.
struct Init {
    plan: Plan,
    out: String,
    dry_run: bool,
    /// The next steps found on the way, before the usual ones.
    next: Vec<String>,
}

impl Init {
    /// `done` or, in a dry run, `would`.
    fn verb(&self, done: &str, would: &str) -> String {
        (if self.dry_run { would } else { done }).to_owned()
    }

    /// Write `path`, or in a dry run show it.
    fn write(&mut self, path: &str, content: String, what: &str) {
        let _ = writeln!(self.out, "{}: {what}", printable(path));
        if self.dry_run {
            for line in content.lines() {
                let line = printable(line);
                // No trailing blank for a blank line.
                let _ = writeln!(
                    self.out,
                    "  |{}{line}",
                    if line.is_empty() { "" } else { " " }
                );
            }
        } else {
            self.plan.writes.push((path.to_owned(), content));
        }
    }

    fn memory(&mut self, found: &Found<'_>) {
        let file = found.file;
        let Some(text) = found.memory else {
            let what = self.verb("created the team memory", "would create the team memory");
            self.write(file, STARTER.to_owned(), &what);
            return;
        };
        let checked = super::run::check(file, text, None, Some("team"), None, false, [false; 2]);
        let form = file_form(text);
        let _ = writeln!(
            self.out,
            "{}: adopted as the team memory{}",
            printable(file),
            if checked.stdout.is_empty() && form == text {
                "; valid and in canonical form"
            } else {
                ", left as it is"
            }
        );
        if !checked.stdout.is_empty() {
            let _ = writeln!(
                self.out,
                "{}: memdoc check --scope team finds:",
                printable(file)
            );
            self.out.push_str(&checked.stdout);
            self.plan.outcome.exit = checked.exit;
            self.next.push(format!(
                "fix what `memdoc check --scope team {file}` reports"
            ));
        }
        if form != text {
            let _ = writeln!(
                self.out,
                "{}: `memdoc fmt` would rewrite it in canonical form:",
                printable(file)
            );
            self.out.push_str(&super::diff::unified(file, text, &form));
            self.next.push(format!(
                "`memdoc fmt {file}` to rewrite it as shown (the pre-commit hook checks it)"
            ));
        }
    }

    fn attribute(&mut self, found: &Found<'_>) {
        let file = found.file;
        let attribute = format!("{file} merge=memdoc");
        let attributes = found.attributes.unwrap_or("");
        let there = attributes.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(file) && words.any(|w| w == "merge=memdoc")
        });
        if there {
            let _ = writeln!(
                self.out,
                ".gitattributes: already has `{}`",
                printable(&attribute)
            );
            return;
        }
        let mut content = attributes.to_owned();
        if !content.is_empty() && !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str(&attribute);
        content.push('\n');
        let what = format!(
            "{} `{}`",
            self.verb("added", "would add"),
            printable(&attribute)
        );
        self.write(".gitattributes", content, &what);
    }

    fn driver(&mut self, found: &Found<'_>) {
        if let Some(driver) = found.driver {
            let _ = writeln!(
                self.out,
                "git config {DRIVER_KEY}: already set to `{}`",
                printable(driver)
            );
            return;
        }
        let _ = writeln!(
            self.out,
            "git config {DRIVER_KEY}: {} `{DRIVER}`",
            self.verb("set to", "would set to")
        );
        if !self.dry_run {
            self.plan
                .config
                .push((NAME_KEY.to_owned(), NAME.to_owned()));
            self.plan
                .config
                .push((DRIVER_KEY.to_owned(), DRIVER.to_owned()));
        }
    }

    fn precommit(&mut self, found: &Found<'_>) {
        const PATH: &str = ".pre-commit-config.yaml";
        let entry = precommit_entry(found.file);
        let Some(config) = found.precommit else {
            let what = self.verb(
                "created with the memdoc-check and memdoc-fmt hooks",
                "would create with the memdoc-check and memdoc-fmt hooks",
            );
            self.write(PATH, format!("repos:\n{}", indented(&entry, "  ")), &what);
            return;
        };
        if config.contains("memdoc-check") {
            let _ = writeln!(self.out, "{PATH}: already has the memdoc hooks");
            return;
        }
        if let Some(indent) = list_indent(config) {
            let mut content = config.to_owned();
            if !content.ends_with('\n') {
                content.push('\n');
            }
            content.push_str(&indented(&entry, &indent));
            let what = self.verb(
                "added the memdoc-check and memdoc-fmt hooks",
                "would add the memdoc-check and memdoc-fmt hooks",
            );
            self.write(PATH, content, &what);
        } else {
            let _ = writeln!(
                self.out,
                "{PATH}: left as it is (its `repos:` list is not its last key); add to that list:"
            );
            self.out.push_str(&indented(&entry, "  "));
        }
    }

    fn next_steps(&mut self, found: &Found<'_>) {
        let file = found.file;
        if found.memory.is_none() {
            for other in found.others {
                self.next.push(format!(
                    "{other} exists: to keep the team memory there instead, delete {file} and run `memdoc init --file {other}`"
                ));
            }
        }
        self.next.push(format!(
            "`git add {file} .gitattributes .pre-commit-config.yaml` and commit"
        ));
        self.next.push(
            "every clone runs `memdoc init` once: git keeps the merge driver in .git/config, which is not committed".to_owned(),
        );
        self.next
            .push("`pre-commit install`, for the hooks to run on each commit".to_owned());
        self.next.push(format!(
            "agents: `memdoc hook session-start --file {file}` and `memdoc hook stop --file {file}` (docs/CLI.md, \"Agent hooks\")"
        ));
        self.out.push_str("\nNext steps:\n");
        for (k, step) in self.next.iter().enumerate() {
            let _ = writeln!(self.out, "{}. {}", k + 1, printable(step));
        }
    }
}

/// The `.pre-commit-config.yaml` item for `file`, unindented.
fn precommit_entry(file: &str) -> String {
    let files = if file == "MEMORY.md" || file.ends_with("/MEMORY.md") {
        String::new()
    } else {
        format!(", files: '^{}$'", regex_escaped(file))
    };
    format!(
        "- repo: https://github.com/memdoc/memdoc\n  rev: v{}\n  hooks:\n    - {{ id: memdoc-check, args: [--scope, team, --previous-rev, HEAD, --deny-losses]{files} }}\n    - {{ id: memdoc-fmt{files} }}\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn regex_escaped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn indented(text: &str, indent: &str) -> String {
    text.lines().fold(String::new(), |mut out, line| {
        let _ = writeln!(out, "{indent}{line}");
        out
    })
}

/// The indentation of the items of `repos:` when that list is the file's
/// last top-level key (so that an item appended at the end joins it);
/// `None` when appending would land anywhere else.
fn list_indent(config: &str) -> Option<String> {
    let top = |l: &str| !l.is_empty() && !l.starts_with([' ', '\t', '#', '-']);
    let last_top = config.lines().rev().find(|l| top(l))?;
    if last_top.trim_end() != "repos:" {
        return None;
    }
    let after = config.rsplit_once(last_top).map_or("", |(_, rest)| rest);
    let item = after.lines().find(|l| l.trim_start().starts_with("- "))?;
    Some(item[..item.len() - item.trim_start().len()].to_owned())
}
