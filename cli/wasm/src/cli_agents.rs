//! `memdoc init` and `memdoc hook` for the npm package's bin (`cli.js`):
//! internal exports (`__cli…`, untyped, not part of the API) over
//! `memdoc_cli::init` and `memdoc_cli::hook`, as `cli.rs`.

// wasm-bindgen hands optional strings and lists over owned.
#![allow(clippy::needless_pass_by_value)]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use memdoc_cli::hook::{self, Input};
use memdoc_cli::hub::Answer;
use memdoc_cli::init::{self, Found};

use super::cli::outcome;

fn pairs(list: &[(String, String)]) -> Array {
    list.iter()
        .map(|(a, b)| Array::of2(&a.into(), &b.into()))
        .collect()
}

fn strings(list: &[String]) -> Array {
    list.iter().map(JsValue::from).collect()
}

fn set(object: &Object, name: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(name), value);
}

/// The plan as an outcome with `writes` and `config`, each `[[a, b]]`.
#[wasm_bindgen(js_name = __cliInit, skip_typescript)]
#[allow(clippy::too_many_arguments)]
pub fn init_plan(
    file: &str,
    memory: Option<String>,
    attributes: Option<String>,
    precommit: Option<String>,
    driver: Option<String>,
    others: Vec<String>,
    dry_run: bool,
) -> Object {
    let others: Vec<&str> = others.iter().map(String::as_str).collect();
    let found = Found {
        file,
        memory: memory.as_deref(),
        attributes: attributes.as_deref(),
        precommit: precommit.as_deref(),
        driver: driver.as_deref(),
        others: &others,
    };
    let plan = init::init(&found, dry_run);
    let out = outcome(plan.outcome);
    set(&out, "writes", &pairs(&plan.writes));
    set(&out, "config", &pairs(&plan.config));
    out
}

/// `[driverKey, nameKey, otherMemories]`.
#[wasm_bindgen(js_name = __cliInitNames, skip_typescript)]
pub fn init_names() -> Array {
    let others: Array = init::OTHER_MEMORIES
        .iter()
        .map(|&o| JsValue::from(o))
        .collect();
    Array::of3(&init::DRIVER_KEY.into(), &init::NAME_KEY.into(), &others)
}

#[wasm_bindgen(js_name = __cliNotARepository, skip_typescript)]
pub fn not_a_repository(said: &str) -> Object {
    outcome(init::not_a_repository(said))
}

#[wasm_bindgen(js_name = __cliHookExit, skip_typescript)]
pub fn hook_exit(code: i32) -> i32 {
    hook::agent_exit(code)
}

#[wasm_bindgen(js_name = __cliHookSessionStart, skip_typescript)]
pub fn session_start(text: &str, query: Option<String>, budget: Option<String>) -> Object {
    outcome(hook::session_start(
        text,
        query.as_deref(),
        budget.as_deref(),
    ))
}

/// `[team, scope, id]` or an outcome to print.
#[wasm_bindgen(js_name = __cliHookHubTarget, skip_typescript)]
pub fn hub_target(value: &str) -> JsValue {
    match hook::hub_target(value) {
        Ok(parts) => parts
            .iter()
            .map(|&p| JsValue::from(p))
            .collect::<Array>()
            .into(),
        Err(o) => outcome(o).into(),
    }
}

/// `{texts, plain, transcript}`.
#[wasm_bindgen(js_name = __cliHookInput, skip_typescript)]
pub fn input(stdin: &str) -> Object {
    let input = hook::input(stdin);
    let out = Object::new();
    set(&out, "texts", &strings(&input.texts));
    set(&out, "plain", &input.plain.into());
    set(
        &out,
        "transcript",
        &input.transcript.map_or(JsValue::NULL, JsValue::from),
    );
    out
}

/// `[proposed, skipped]`.
#[wasm_bindgen(js_name = __cliHookProposal, skip_typescript)]
pub fn proposal(texts: Vec<String>, plain: bool, transcript: Option<String>, today: &str) -> Array {
    let input = Input {
        texts,
        plain,
        transcript: None,
    };
    let (proposed, skipped) = hook::proposal(&input, transcript.as_deref(), today);
    Array::of2(&proposed.into(), &strings(&skipped))
}

#[wasm_bindgen(js_name = __cliHookNotTaken, skip_typescript)]
pub fn not_taken(skipped: Vec<String>) -> String {
    hook::not_taken(&skipped)
}

#[wasm_bindgen(js_name = __cliHookSaveFile, skip_typescript)]
pub fn save_file(file: &str, current: &str, proposed: &str, notes: &str) -> Object {
    outcome(hook::save_file(file, current, proposed, notes))
}

/// `[content, null]` (content null: nothing new) or `[null, outcome]`.
#[wasm_bindgen(js_name = __cliHookAdded, skip_typescript)]
pub fn added(file: &str, current: &str, proposed: &str) -> Array {
    match hook::added(file, current, proposed) {
        Ok(content) => Array::of2(
            &content.map_or(JsValue::NULL, JsValue::from),
            &JsValue::NULL,
        ),
        Err(o) => Array::of2(&JsValue::NULL, &outcome(o)),
    }
}

/// `[content, revision, null]` or `[null, null, outcome]`.
#[wasm_bindgen(js_name = __cliHookHubMemory, skip_typescript)]
pub fn hub_memory(status: u16, body: &str, retry_after: Option<String>) -> Array {
    let answer = Answer {
        status,
        body,
        retry_after: retry_after.as_deref(),
    };
    match hook::hub_memory(answer) {
        // Revisions are far below 2^53.
        #[allow(clippy::cast_precision_loss)]
        Ok((content, revision)) => {
            Array::of3(&content.into(), &(revision as f64).into(), &JsValue::NULL)
        }
        Err(o) => Array::of3(&JsValue::NULL, &JsValue::NULL, &outcome(o)),
    }
}

#[wasm_bindgen(js_name = __cliHookHubSaved, skip_typescript)]
pub fn hub_saved(status: u16, body: &str, retry_after: Option<String>, notes: &str) -> Object {
    let answer = Answer {
        status,
        body,
        retry_after: retry_after.as_deref(),
    };
    outcome(hook::hub_saved(answer, notes))
}

#[wasm_bindgen(js_name = __cliHookHubSavedNothing, skip_typescript)]
pub fn hub_saved_nothing(notes: &str) -> Object {
    outcome(hook::hub_saved_nothing(notes))
}

/// `files` is `[name, text, name, text, ...]`; `[content, report, shown]`
/// or `[null, null, outcome]`.
#[wasm_bindgen(js_name = __cliImport, skip_typescript)]
pub fn import(kind: &str, files: Vec<String>, today: &str) -> Array {
    let named: Vec<(&str, &str)> = files
        .chunks(2)
        .map(|pair| (pair[0].as_str(), pair.get(1).map_or("", String::as_str)))
        .collect();
    match memdoc_cli::import::import(kind, &named, today) {
        Ok(imported) => Array::of3(
            &imported.content.clone().into(),
            &memdoc_cli::import::report(&imported).into(),
            &outcome(memdoc_cli::import::shown(&imported)),
        ),
        Err(o) => Array::of3(&JsValue::NULL, &JsValue::NULL, &outcome(o)),
    }
}
