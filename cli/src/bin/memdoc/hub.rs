//! `memdoc hub …`: the hub's HTTP requests (`MEMDOC_HUB_URL`, the key or
//! the operator token from the environment), each answer handed to the
//! engine's `memdoc_cli::hub`, which decides what is printed and written.

use memdoc_cli::{hub, Outcome};

use crate::args::HubCommand;
use crate::{apply, apply_with, hub_admin, read, write_secret};

pub(crate) fn hub_command(command: HubCommand) -> i32 {
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
pub(crate) struct Body<'a> {
    pub(crate) if_match: Option<&'a str>,
    pub(crate) content_type: &'a str,
    pub(crate) text: &'a str,
}

/// The hub's URL and key.
pub(crate) struct Client {
    pub(crate) base: String,
    pub(crate) key: String,
}

/// An answer of the hub, owned.
pub(crate) struct Owned {
    pub(crate) status: u16,
    pub(crate) body: String,
    pub(crate) retry_after: Option<String>,
}

impl Owned {
    pub(crate) fn as_answer(&self) -> hub::Answer<'_> {
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
    pub(crate) fn from_env(command: &str) -> Result<Self, Outcome> {
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
    pub(crate) fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Body<'_>>,
    ) -> Result<Owned, Outcome> {
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
