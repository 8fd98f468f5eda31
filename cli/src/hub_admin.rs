//! `memdoc hub team|key|member …`: a hub's teams, keys and members from the
//! command line (docs/CLI.md, "Teams, keys and members"; the routes of
//! docs/HUB.md). For both front ends: the request a command makes
//! ([`request`]: method, path and JSON body, built here once) and what its
//! answer prints ([`answered`]). A new key's secret is the one thing on
//! standard output, so that `export MEMDOC_HUB_KEY=$(memdoc hub key create
//! …)` works; what it is goes to standard error. No I/O.

use memdoc::store::json::{object, Object};

use super::hub::{self, team_path, Answer, Credential};
use super::{exit, printable, Outcome};

/// The commands of this module, as `memdoc hub` names them.
pub const COMMANDS: [&str; 6] = [
    "team create",
    "key create",
    "key revoke",
    "key rotate",
    "member disable",
    "member enable",
];

/// The arguments of a command: its positionals in order (`team create`:
/// `TEAM`; `key create`: `TEAM MEMBER`; `key revoke|rotate`: `TEAM KEY_ID`;
/// `member disable|enable`: `TEAM MEMBER`) and its options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Args<'a> {
    /// The positionals.
    pub positionals: &'a [&'a str],
    /// `--admin MEMBER` (`team create`: the first admin's member id).
    pub admin: Option<&'a str>,
    /// `--role reader|writer|admin` (`key create`).
    pub role: Option<&'a str>,
    /// `--label TEXT` (`key create`).
    pub label: Option<&'a str>,
    /// `--expires-at DATE-TIME` (`key create`, RFC 3339).
    pub expires_at: Option<&'a str>,
    /// `--grace SECONDS` (`key rotate`).
    pub grace: Option<&'a str>,
}

impl<'a> Args<'a> {
    fn at(&self, k: usize) -> &'a str {
        self.positionals.get(k).copied().unwrap_or_default()
    }
}

/// The HTTP request of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `POST`, `DELETE` or `PATCH`.
    pub method: &'static str,
    /// The path under the hub's URL.
    pub path: String,
    /// The JSON body, if any.
    pub body: Option<String>,
}

/// The request of `command`.
///
/// # Errors
/// The outcome of an option value the command cannot send (exit 2): a
/// `--grace` that is not a whole number.
pub fn request(command: &str, args: &Args<'_>) -> Result<Request, Outcome> {
    let team = args.at(0);
    Ok(match command {
        "team create" => Request {
            method: "POST",
            path: "/v1/teams".to_owned(),
            body: Some(object(64, |o| {
                o.string("team", team);
                given(o, "admin", args.admin);
            })),
        },
        "key create" => Request {
            method: "POST",
            path: team_path(team, "/keys"),
            body: Some(object(96, |o| {
                o.string("member", args.at(1))
                    .string("role", args.role.unwrap_or_default());
                given(o, "label", args.label);
                given(o, "expiresAt", args.expires_at);
            })),
        },
        "key revoke" => Request {
            method: "DELETE",
            path: team_path(team, &format!("/keys/{}", hub::encode(args.at(1)))),
            body: None,
        },
        "key rotate" => {
            let grace = args.grace.unwrap_or_default();
            let Some(seconds) = grace
                .parse::<u64>()
                .ok()
                .filter(|_| grace.bytes().all(|b| b.is_ascii_digit()))
            else {
                return Err(Outcome::failing(
                    &format!(
                        "invalid --grace {}: expected the whole number of seconds the old key keeps working (0: it stops at once)",
                        memdoc::Quoted(grace)
                    ),
                    exit::USAGE,
                ));
            };
            Request {
                method: "POST",
                path: team_path(team, &format!("/keys/{}/rotate", hub::encode(args.at(1)))),
                body: Some(object(32, |o| {
                    o.number("graceSeconds", seconds);
                })),
            }
        }
        _ => Request {
            method: "PATCH",
            path: team_path(team, &format!("/members/{}", hub::encode(args.at(1)))),
            body: Some(object(32, |o| {
                o.string(
                    "status",
                    if command == "member disable" {
                        "disabled"
                    } else {
                        "active"
                    },
                );
            })),
        },
    })
}

/// The field `name` when the option was given (the hub takes no `null`
/// for an option left out).
fn given(o: &mut Object<'_>, name: &str, value: Option<&str>) {
    if let Some(value) = value {
        o.string(name, value);
    }
}

/// What `command`'s answer prints.
#[must_use]
pub fn answered(command: &str, args: &Args<'_>, answer: Answer<'_>) -> Outcome {
    let team = printable(args.at(0));
    if !(200..300).contains(&answer.status) {
        return refused(command, answer);
    }
    if command == "key revoke" {
        return Outcome::printing(format!(
            "revoked key {} of team {team}\n",
            printable(args.at(1))
        ));
    }
    let Some(body) = hub::ok_json(answer) else {
        return hub::not_the_hub(answer);
    };
    let text = |name: &str| hub::text(&body, name).map(printable);
    if command.starts_with("member ") {
        let (Some(member), Some(status)) = (text("member"), text("status")) else {
            return hub::not_the_hub(answer);
        };
        return Outcome::printing(format!("member {member} of team {team}: {status}\n"));
    }
    let (Some(key), Some(id)) = (
        text("key"),
        text(if command == "team create" {
            "keyId"
        } else {
            "id"
        }),
    ) else {
        return hub::not_the_hub(answer);
    };
    let member = text("member").unwrap_or_default();
    let what = match command {
        "team create" => format!("made team {team}; admin key {id} of member {member}"),
        "key rotate" => {
            let old = hub::field(&body, "rotated");
            let old_id = old
                .and_then(|o| hub::text(o, "id"))
                .map(printable)
                .unwrap_or_default();
            let until = old
                .and_then(|o| hub::text(o, "expiresAt"))
                .map(printable)
                .unwrap_or_default();
            format!("key {id} of member {member} replaces key {old_id}, which works until {until}")
        }
        _ => format!(
            "made key {id} of member {member}, role {}",
            text("role").unwrap_or_default()
        ),
    };
    Outcome {
        stdout: format!("{key}\n"),
        stderr: format!("memdoc: {what}; its secret is on standard output, shown this once\n"),
        ..Outcome::default()
    }
}

/// A refusal, with what to do where the hub's detail does not say it.
fn refused(command: &str, answer: Answer<'_>) -> Outcome {
    let code = hub::from_json_text(answer.body, "code");
    match code.as_deref() {
        Some("team/exists") if command == "team create" => {
            let detail = hub::from_json_text(answer.body, "detail").unwrap_or_default();
            Outcome::failing(
                &format!("hub: team/exists: {detail}; choose another team id"),
                exit::HUB_REFUSED,
            )
        }
        // A refusal of these commands is never a save's finding (exit 1).
        _ => Outcome {
            exit: exit::HUB_REFUSED.max(hub::problem_of(answer, Credential::of(command)).exit),
            ..hub::problem_of(answer, Credential::of(command))
        },
    }
}
