//! The command line's arguments (clap): every command, its options and its
//! `--help` (docs/CLI.md; the npm bin prints the same help, generated from
//! these in `help_file.rs`).

use clap::{Parser, Subcommand};

use crate::{agents, hub_admin};

/// Check, format and merge memory documents; recall, compact and expire
/// them; read and save them on a memdoc hub.
#[derive(Parser)]
#[command(name = "memdoc", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
        /// Recall by meaning with this embedder, or by words only (none).
        /// Default: the static table, or e5 for a memory or question mostly
        /// not in Latin letters, when their files are found (docs/CLI.md).
        #[arg(long, value_name = "NAME", value_parser = ["static", "minilm", "e5", "none"])]
        embedder: Option<String>,
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
pub(crate) enum HubCommand {
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
    pub(crate) fn name(&self) -> &'static str {
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
