//! The command line's engine (`memdoc_cli`) for the npm package's bin
//! (`cli.js`): internal exports (`__cli…`, untyped, not part of the API),
//! each the front end's strings in, the engine's call, its outcome out as
//! `{stdout, stderr, write, exit}`.

// wasm-bindgen hands optional strings and lists over owned.
#![allow(clippy::needless_pass_by_value)]

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use memdoc_cli::hub::{self, Answer, Credential, Push, Target};
use memdoc_cli::hub_admin::{self, Args};
use memdoc_cli::{messages, policy, run, Outcome};

pub(super) fn outcome(o: Outcome) -> Object {
    let out = Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = Reflect::set(&out, &JsValue::from_str(name), &value);
    };
    set("stdout", o.stdout.into());
    set("stderr", o.stderr.into());
    set("write", o.write.map_or(JsValue::NULL, JsValue::from));
    set("exit", o.exit.into());
    out
}

#[wasm_bindgen(js_name = __cliCheck, skip_typescript)]
#[allow(clippy::too_many_arguments)] // the command's options, one each
pub fn check(
    file: &str,
    text: &str,
    previous: Option<String>,
    scope: Option<String>,
    format: Option<String>,
    colour: bool,
    deny_warnings: bool,
    deny_losses: bool,
) -> Object {
    outcome(run::check(
        file,
        text,
        previous.as_deref(),
        scope.as_deref(),
        format.as_deref(),
        colour,
        [deny_warnings, deny_losses],
    ))
}

#[wasm_bindgen(js_name = __cliFmt, skip_typescript)]
pub fn fmt(file: &str, text: &str, check: bool, to_stdout: bool, drop_preamble: bool) -> Object {
    outcome(run::fmt(file, text, check, to_stdout, drop_preamble))
}

#[wasm_bindgen(js_name = __cliFmtSummary, skip_typescript)]
pub fn fmt_summary(reformatted: usize, unchanged: usize, refused: usize) -> String {
    run::fmt_summary(reformatted, unchanged, refused)
}

#[wasm_bindgen(js_name = __cliMerge, skip_typescript)]
pub fn merge(file: &str, base: &str, ours: &str, theirs: &str) -> Object {
    outcome(run::merge(file, base, ours, theirs))
}

/// `embedder`, `query` and `items`: the vectors of the embedder the bin
/// loaded; without them, `missing` names the embedder whose files it did
/// not find (`run::Meaning`).
#[wasm_bindgen(js_name = __cliRecall, skip_typescript)]
#[allow(clippy::too_many_arguments)] // the command's options, one each
pub fn recall(
    text: &str,
    question: &str,
    scope: Option<String>,
    budget: Option<String>,
    explain: bool,
    trace: bool,
    embedder: Option<String>,
    query: Option<Vec<f32>>,
    items: Option<Vec<f32>>,
    missing: Option<String>,
) -> Object {
    let meaning = match (&embedder, &query, &missing) {
        (Some(embedder), Some(query), _) => run::Meaning::Vectors(memdoc::RecallVectors {
            embedder,
            query,
            items: items.as_deref().unwrap_or_default(),
        }),
        (_, _, Some(missing)) => run::Meaning::NoFiles(missing),
        _ => run::Meaning::WordsAsked,
    };
    outcome(run::recall(
        text,
        question,
        scope.as_deref(),
        budget.as_deref(),
        [explain, trace],
        meaning,
    ))
}

#[wasm_bindgen(js_name = __cliCompact, skip_typescript)]
pub fn compact(file: &str, text: &str, to: &str, scope: Option<String>) -> Object {
    outcome(run::compact(file, text, to, scope.as_deref()))
}

#[wasm_bindgen(js_name = __cliExpire, skip_typescript)]
pub fn expire(file: &str, text: &str, policies: Vec<String>, today: &str) -> Object {
    let policies: Vec<&str> = policies.iter().map(String::as_str).collect();
    outcome(run::expire(file, text, &policies, today))
}

#[wasm_bindgen(js_name = __cliPrompt, skip_typescript)]
pub fn prompt(text: &str, scope: &str) -> Object {
    outcome(run::prompt(text, scope))
}

#[wasm_bindgen(js_name = __cliReadFailed, skip_typescript)]
pub fn read_failed(file: &str, kind: &str) -> Object {
    outcome(messages::read_failed(file, kind))
}

#[wasm_bindgen(js_name = __cliWriteFailed, skip_typescript)]
pub fn write_failed(file: &str, kind: &str) -> Object {
    outcome(messages::write_failed(file, kind))
}

#[wasm_bindgen(js_name = __cliGitFailed, skip_typescript)]
pub fn git_failed(rev: &str, file: &str, git_error: &str) -> Object {
    outcome(messages::git_failed(rev, file, git_error))
}

#[wasm_bindgen(js_name = __cliUtcDate, skip_typescript)]
pub fn utc_date(seconds: f64) -> String {
    // Whole seconds since 1970 from `Date.now() / 1000`: in range by far.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    policy::utc_date(seconds.max(0.0) as u64)
}

/// The environment variable `memdoc hub COMMAND` authenticates with.
#[wasm_bindgen(js_name = __cliHubCredential, skip_typescript)]
pub fn hub_credential(command: &str) -> String {
    Credential::of(command).variable().to_owned()
}

#[wasm_bindgen(js_name = __cliHubMissing, skip_typescript)]
pub fn hub_missing(url: Option<String>, secret: Option<String>, command: &str) -> JsValue {
    hub::missing(url.as_deref(), secret.as_deref(), Credential::of(command))
        .map_or(JsValue::NULL, |o| outcome(o).into())
}

#[wasm_bindgen(js_name = __cliHubTeamPath, skip_typescript)]
pub fn hub_team_path(team: &str, tail: &str) -> String {
    hub::team_path(team, tail)
}

#[wasm_bindgen(js_name = __cliHubBase, skip_typescript)]
pub fn hub_base(url: &str) -> String {
    hub::base(url).to_owned()
}

#[wasm_bindgen(js_name = __cliHubPath, skip_typescript)]
pub fn hub_path(team: &str, scope: &str, id: &str, tail: &str) -> String {
    Target { team, scope, id }.path(tail)
}

#[wasm_bindgen(js_name = __cliHubUnreachable, skip_typescript)]
pub fn hub_unreachable(url: &str) -> Object {
    outcome(hub::unreachable(url))
}

/// `[tag, null]` or `[null, outcome]`.
#[wasm_bindgen(js_name = __cliHubIfMatch, skip_typescript)]
pub fn hub_if_match(revision: &str) -> js_sys::Array {
    match hub::if_match(revision) {
        Ok(tag) => js_sys::Array::of2(&tag.into(), &JsValue::NULL),
        Err(o) => js_sys::Array::of2(&JsValue::NULL, &outcome(o)),
    }
}

#[wasm_bindgen(js_name = __cliHubNeedsCurrent, skip_typescript)]
pub fn hub_needs_current(status: u16) -> bool {
    hub::needs_current(Answer {
        status,
        body: "",
        retry_after: None,
    })
}

#[wasm_bindgen(js_name = __cliHubPulled, skip_typescript)]
pub fn hub_pulled(
    file: Option<String>,
    status: u16,
    body: &str,
    retry_after: Option<String>,
) -> Object {
    let answer = Answer {
        status,
        body,
        retry_after: retry_after.as_deref(),
    };
    outcome(hub::pulled(file.as_deref(), answer))
}

/// `target` is `[team, scope, id]`; `put` and `current` are `[status,
/// body, retryAfter]`.
#[wasm_bindgen(js_name = __cliHubPushed, skip_typescript)]
pub fn hub_pushed(
    file: &str,
    text: &str,
    target: Vec<String>,
    revision: &str,
    merge: bool,
    put: js_sys::Array,
    current: Option<js_sys::Array>,
) -> Object {
    let [team, scope, id] = [0, 1, 2].map(|k| target.get(k).map_or("", String::as_str));
    let put = owned(&put);
    let current = current.map(|c| owned(&c));
    let push = Push {
        file,
        text,
        target: Target { team, scope, id },
        revision,
        merge,
    };
    outcome(hub::pushed(
        &push,
        answer(&put),
        current.as_ref().map(answer),
    ))
}

#[wasm_bindgen(js_name = __cliHubHistory, skip_typescript)]
pub fn hub_history(status: u16, body: &str, retry_after: Option<String>) -> Object {
    outcome(hub::history(Answer {
        status,
        body,
        retry_after: retry_after.as_deref(),
    }))
}

#[wasm_bindgen(js_name = __cliHubExported, skip_typescript)]
pub fn hub_exported(
    file: Option<String>,
    team: &str,
    status: u16,
    body: &str,
    retry_after: Option<String>,
) -> Object {
    outcome(hub::exported(
        file.as_deref(),
        team,
        Answer {
            status,
            body,
            retry_after: retry_after.as_deref(),
        },
    ))
}

#[wasm_bindgen(js_name = __cliHubImported, skip_typescript)]
pub fn hub_imported(file: &str, status: u16, body: &str, retry_after: Option<String>) -> Object {
    outcome(hub::imported(
        file,
        Answer {
            status,
            body,
            retry_after: retry_after.as_deref(),
        },
    ))
}

/// The arguments of `memdoc hub team|key|member …` from the bin's parse:
/// its positionals and its options by their long names.
fn admin_args<'a>(positionals: &'a [&'a str], options: &'a [Option<String>; 5]) -> Args<'a> {
    let [admin, role, label, expires_at, grace] = options.each_ref().map(Option::as_deref);
    Args {
        positionals,
        admin,
        role,
        label,
        expires_at,
        grace,
    }
}

/// `[method, path, body]` of the command's request, or `[null, outcome]`.
/// `options` is `[admin, role, label, expiresAt, grace]`.
#[wasm_bindgen(js_name = __cliHubAdminRequest, skip_typescript)]
pub fn hub_admin_request(
    command: &str,
    positionals: Vec<String>,
    options: Vec<JsValue>,
) -> js_sys::Array {
    let positionals: Vec<&str> = positionals.iter().map(String::as_str).collect();
    let options = [0, 1, 2, 3, 4].map(|k| options.get(k).and_then(JsValue::as_string));
    match hub_admin::request(command, &admin_args(&positionals, &options)) {
        Ok(r) => js_sys::Array::of3(
            &r.method.into(),
            &r.path.into(),
            &r.body.map_or(JsValue::NULL, JsValue::from),
        ),
        Err(o) => js_sys::Array::of2(&JsValue::NULL, &outcome(o)),
    }
}

/// What the answer of the command's request prints.
#[wasm_bindgen(js_name = __cliHubAdminAnswered, skip_typescript)]
pub fn hub_admin_answered(
    command: &str,
    positionals: Vec<String>,
    status: u16,
    body: &str,
    retry_after: Option<String>,
) -> Object {
    let positionals: Vec<&str> = positionals.iter().map(String::as_str).collect();
    let options = [None, None, None, None, None];
    outcome(hub_admin::answered(
        command,
        &admin_args(&positionals, &options),
        Answer {
            status,
            body,
            retry_after: retry_after.as_deref(),
        },
    ))
}

/// `[status, body, retryAfter]` of JavaScript.
fn owned(parts: &js_sys::Array) -> (u16, String, Option<String>) {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let status = parts.get(0).as_f64().unwrap_or(0.0) as u16;
    (
        status,
        parts.get(1).as_string().unwrap_or_default(),
        parts.get(2).as_string(),
    )
}

fn answer(parts: &(u16, String, Option<String>)) -> Answer<'_> {
    Answer {
        status: parts.0,
        body: &parts.1,
        retry_after: parts.2.as_deref(),
    }
}
