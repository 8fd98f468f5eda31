//! `memdoc hub team|key|member …`: the arguments (clap) and the request of
//! each; the request's path and body and what its answer prints are the
//! engine's (`memdoc_cli::hub_admin`), as for the npm bin.

use clap::Subcommand;
use memdoc_cli::hub_admin::{self, Args};

use super::{apply, Body, Client};

/// `memdoc hub team …`.
#[derive(Subcommand)]
pub enum TeamCommand {
    /// Make a team and its first admin key, with the hub's operator token
    /// (from the environment); the key on standard output.
    Create {
        /// The team id.
        team: String,
        /// The first admin's member id (default admin).
        #[arg(long, value_name = "MEMBER")]
        admin: Option<String>,
    },
}

/// `memdoc hub key …`.
#[derive(Subcommand)]
pub enum KeyCommand {
    /// Make a key for a member (an admin key); the key on standard output.
    Create {
        /// The team id.
        team: String,
        /// The member the key is for.
        member: String,
        /// reader, writer or admin.
        #[arg(long, required = true, value_name = "reader|writer|admin")]
        role: String,
        /// A label for the key.
        #[arg(long, value_name = "TEXT")]
        label: Option<String>,
        /// When the key stops working (RFC 3339, with a time zone).
        #[arg(long = "expires-at", value_name = "DATE-TIME")]
        expires_at: Option<String>,
    },
    /// Revoke a key (an admin key); a team's last admin key is kept.
    Revoke {
        /// The team id.
        team: String,
        /// The key's id (not its secret).
        key_id: String,
    },
    /// A new key for the same member, role and label (the member's own
    /// key); the old one works for the grace; the new key on standard output.
    Rotate {
        /// The team id.
        team: String,
        /// The key's id (not its secret).
        key_id: String,
        /// Seconds the old key keeps working (0: it stops at once).
        #[arg(long, required = true, value_name = "SECONDS")]
        grace: String,
    },
}

/// `memdoc hub member …`.
#[derive(Subcommand)]
pub enum MemberCommand {
    /// Refuse every key of a member at once (an admin key).
    Disable {
        /// The team id.
        team: String,
        /// The member id.
        member: String,
    },
    /// Let a disabled member's keys back in (an admin key).
    Enable {
        /// The team id.
        team: String,
        /// The member id.
        member: String,
    },
}

/// A command of this module: its name and its arguments.
pub struct Parsed {
    name: &'static str,
    positionals: Vec<String>,
    admin: Option<String>,
    role: Option<String>,
    label: Option<String>,
    expires_at: Option<String>,
    grace: Option<String>,
}

impl Parsed {
    fn of(name: &'static str, positionals: Vec<String>) -> Self {
        Self {
            name,
            positionals,
            admin: None,
            role: None,
            label: None,
            expires_at: None,
            grace: None,
        }
    }

    /// The command's name (`team create`, …).
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl From<TeamCommand> for Parsed {
    fn from(command: TeamCommand) -> Self {
        let TeamCommand::Create { team, admin } = command;
        Self {
            admin,
            ..Self::of("team create", vec![team])
        }
    }
}

impl From<KeyCommand> for Parsed {
    fn from(command: KeyCommand) -> Self {
        match command {
            KeyCommand::Create {
                team,
                member,
                role,
                label,
                expires_at,
            } => Self {
                role: Some(role),
                label,
                expires_at,
                ..Self::of("key create", vec![team, member])
            },
            KeyCommand::Revoke { team, key_id } => Self::of("key revoke", vec![team, key_id]),
            KeyCommand::Rotate {
                team,
                key_id,
                grace,
            } => Self {
                grace: Some(grace),
                ..Self::of("key rotate", vec![team, key_id])
            },
        }
    }
}

impl From<MemberCommand> for Parsed {
    fn from(command: MemberCommand) -> Self {
        match command {
            MemberCommand::Disable { team, member } => {
                Self::of("member disable", vec![team, member])
            }
            MemberCommand::Enable { team, member } => Self::of("member enable", vec![team, member]),
        }
    }
}

/// Run `command` against the hub of `client`; its exit code.
pub fn run(client: &Client, command: &Parsed) -> i32 {
    let positionals: Vec<&str> = command.positionals.iter().map(String::as_str).collect();
    let args = Args {
        positionals: &positionals,
        admin: command.admin.as_deref(),
        role: command.role.as_deref(),
        label: command.label.as_deref(),
        expires_at: command.expires_at.as_deref(),
        grace: command.grace.as_deref(),
    };
    let request = match hub_admin::request(command.name, &args) {
        Ok(request) => request,
        Err(failed) => return apply("-", failed),
    };
    let body = request.body.as_deref().map(|text| Body {
        if_match: None,
        content_type: "application/json",
        text,
    });
    match client.call(request.method, &request.path, body) {
        Ok(answer) => apply(
            "-",
            hub_admin::answered(command.name, &args, answer.as_answer()),
        ),
        Err(failed) => apply("-", failed),
    }
}
