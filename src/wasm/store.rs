//! The store for JavaScript (API.md, "Persistence through the host"): the
//! core's [`MemoryStore`](crate::store::MemoryStore) over a JavaScript
//! `KvHost` object, with the caller's optional `rewrite` and `now` functions.
//!
//! Everything here converts: [`JsHost`] calls `host.get`/`host.put`, awaits
//! the answers (at most `timeoutMs` each, when given: [`HostFailure::TimedOut`])
//! and checks their shapes (a wrong shape is
//! [`HostFailure::Malformed`], a throw or rejection is [`HostFailure::Error`]
//! with the original value, which reaches the caller unchanged as the
//! error's `cause`); arguments are checked before any host call; results are
//! the store's views through the one serializer. Each method returns a
//! [`Task`] that `core.js` turns into a promise (see [`super::task`]).

use std::rc::Rc;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::js::input::{
    revision_number, MemoryRefInput, StoreOptionsInput, StoreSaveOptionsInput, SweepOptionsInput,
};
use crate::js::store::{AuditEntryView, RewriteRequestView, SaveOutcomeView};
use crate::store::{
    Clock, DeleteOutcome, Host, HostFailure, MemoryRef, PutOutcome, Rewrite, RewriteRequest,
    StoreError, StoreSaveOptions, Versioned,
};
use crate::Error;

use super::convert::{input, shaped, string_near, view, view_kept, view_repeating};
use super::errors::{store_to_js, to_js};
use super::names::name;
use super::panic::test_trigger;
use super::read::found;
use super::task::{Answer, Task};
use super::text::Kept;
use super::types::{AuditEntryList, Loaded, SaveOutcome, SweepOutcome};

/// The core store over a JavaScript host, with the caller's `rewrite`
/// function or without one (a run-time choice, so that the store is
/// compiled for one type only).
type Store = crate::store::MemoryStore<JsHost, JsRewrite>;

/// A `KvHost` object.
struct JsHost {
    object: JsValue,
    /// The store's `timeoutMs`: how long each answer is awaited.
    timeout_ms: Option<u32>,
    /// The value this store last wrote or read, with its conversion: a
    /// save reads back the head record it wrote or read last, and a host
    /// that keeps strings as they are hands back the very string. A value
    /// written is made with what it repeats of this one as slices of it
    /// ([`Kept::repeated`]): a save's snapshot repeats the start of the
    /// content of the head read before it, and its head all of the
    /// snapshot's content.
    value: Kept,
}

impl JsHost {
    /// `host[method](...args)`, awaited. A plain (non-promise) answer is
    /// accepted as if it had been resolved.
    async fn call(
        &self,
        method: &'static str,
        args: &Array,
    ) -> Result<JsValue, HostFailure<JsValue>> {
        let function = Reflect::get(&self.object, &name(method))
            .map_err(HostFailure::Error)?
            .dyn_into::<Function>()
            .map_err(|_| HostFailure::Malformed(format!("host.{method} is not a function")))?;
        let answer = function
            .apply(&self.object, args)
            .map_err(HostFailure::Error)?;
        let Some(ms) = self.timeout_ms else {
            return Answer::new(answer).await.map_err(HostFailure::Error);
        };
        Answer::new(with_deadline(&answer, ms)).await.map_err(|e| {
            if timed_out(&e) {
                HostFailure::TimedOut(ms)
            } else {
                HostFailure::Error(e)
            }
        })
    }
}

#[wasm_bindgen(module = "/src/wasm/deadline.js")]
extern "C" {
    /// A promise of `answer`, or rejected with a reason of its own after `ms`
    /// milliseconds (a timer cleared once either happened).
    #[wasm_bindgen(js_name = withDeadline)]
    fn with_deadline(answer: &JsValue, ms: u32) -> JsValue;

    /// Whether `reason` is the rejection of [`with_deadline`]'s timer.
    #[wasm_bindgen(js_name = timedOut)]
    fn timed_out(reason: &JsValue) -> bool;
}

impl Host for JsHost {
    type Error = JsValue;

    async fn get(&self, key: &str) -> Result<Option<Versioned>, HostFailure<JsValue>> {
        let answer = self
            .call("get", &Array::of1(&JsValue::from_str(key)))
            .await?;
        if answer.is_null() {
            return Ok(None);
        }
        // `undefined` is not "absent": a host that forgot to answer must not
        // make a stored memory look empty.
        if !answer.is_object() {
            return Err(malformed("get", "null or { value, version }", &answer));
        }
        let value = field(&answer, "value")?;
        let value = self
            .value
            .string(&value)
            .ok_or_else(|| not_a_string("get", "value", &value))?;
        test_trigger(&value);
        Ok(Some(Versioned {
            value,
            version: string_field(&answer, "get", "version")?,
        }))
    }

    async fn put(
        &self,
        key: &str,
        value: &str,
        expected_version: Option<&str>,
    ) -> Result<PutOutcome, HostFailure<JsValue>> {
        let condition = js_sys::Object::new();
        let expected = expected_version.map_or(JsValue::NULL, JsValue::from_str);
        Reflect::set(&condition, &name("expectedVersion"), &expected)
            .map_err(HostFailure::Error)?;
        // A record starts with its content: a snapshot with what it shares
        // with the head read before it, the head after it with all of the
        // snapshot's, as slices of those strings.
        let written: JsValue = self.value.repeated(value.into()).into();
        let args = Array::of3(&JsValue::from_str(key), &written, &condition);
        let answer = self.call("put", &args).await?;
        let expected_shape = "{ ok: true, version } or { ok: false }";
        if !answer.is_object() {
            return Err(malformed("put", expected_shape, &answer));
        }
        let ok = Reflect::get(&answer, &name("ok")).map_err(HostFailure::Error)?;
        match ok.as_bool() {
            Some(true) => Ok(PutOutcome::Written {
                version: string_field(&answer, "put", "version")?,
            }),
            Some(false) => Ok(PutOutcome::VersionMismatch),
            None => Err(HostFailure::Malformed(format!(
                "put answered an object whose `ok` is {}, not a boolean",
                found(&ok)
            ))),
        }
    }

    /// `delete` is optional in `KvHost`: without it the old snapshots stay.
    /// Its answer is not looked at; only a throw or rejection is a failure.
    async fn delete(&self, key: &str) -> Result<DeleteOutcome, HostFailure<JsValue>> {
        if self.delete_function().is_none() {
            return Ok(DeleteOutcome::Unsupported);
        }
        self.call("delete", &Array::of1(&JsValue::from_str(key)))
            .await?;
        Ok(DeleteOutcome::Deleted)
    }
}

impl JsHost {
    /// `host.delete`, when the host has one.
    fn delete_function(&self) -> Option<Function> {
        Reflect::get(&self.object, &name("delete"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
    }
}

/// The field `name` of a host's answer.
fn field(answer: &JsValue, field: &'static str) -> Result<JsValue, HostFailure<JsValue>> {
    Reflect::get(answer, &name(field)).map_err(HostFailure::Error)
}

/// The string field `name` of a host's answer.
fn string_field(
    answer: &JsValue,
    method: &str,
    name: &'static str,
) -> Result<String, HostFailure<JsValue>> {
    let value = field(answer, name)?;
    value
        .as_string()
        .ok_or_else(|| not_a_string(method, name, &value))
}

/// A host's answer whose field `name` is `value`, not a string.
fn not_a_string(method: &str, name: &str, value: &JsValue) -> HostFailure<JsValue> {
    HostFailure::Malformed(format!(
        "{method} answered an object whose `{name}` is {}, not a string",
        found(value)
    ))
}

fn malformed(method: &str, expected: &str, answer: &JsValue) -> HostFailure<JsValue> {
    HostFailure::Malformed(format!(
        "{method} answered {}, not {expected}",
        found(answer)
    ))
}

/// The caller's `rewrite` function.
struct JsRewrite(Function);

impl Rewrite for JsRewrite {
    /// Why the store does not use the reply (it only says that the rewrite
    /// failed, so the value itself is not passed on).
    type Error = JsValue;

    async fn rewrite(&self, request: RewriteRequest) -> Result<String, JsValue> {
        let arg: JsValue = view(&RewriteRequestView::from(&request))?;
        let answer = self.0.call1(&JsValue::UNDEFINED, &arg)?;
        Answer::new(answer)
            .await?
            .as_string()
            .ok_or_else(|| JsValue::from_str("the rewrite did not answer a string"))
    }
}

/// `options.now`, falling back to `Date` when it is absent, throws, or does
/// not answer a string.
fn clock(now: Option<Function>) -> Clock {
    Box::new(move || {
        now.as_ref()
            .and_then(|f| f.call0(&JsValue::UNDEFINED).ok())
            .and_then(|t| t.as_string())
            .unwrap_or_else(|| String::from(js_sys::Date::new_0().to_iso_string()))
    })
}

/// The optional function `options[name]`; `undefined` and `null` are none.
fn function_option(options: &JsValue, name: &str) -> Result<Option<Function>, JsValue> {
    if !options.is_object() {
        return Ok(None);
    }
    let value = Reflect::get(options, &JsValue::from_str(name))
        .map_err(|_| to_js(&Error::InvalidOptions(format!("reading `{name}` threw"))))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_into::<Function>().map(Some).map_err(|_| {
        to_js(&Error::InvalidOptions(format!(
            "`{name}` must be a function"
        )))
    })
}

/// The checked `{ scope, id }`.
fn memory_ref(value: &JsValue) -> Result<MemoryRef, JsValue> {
    if !value.is_object() {
        return Err(to_js(&Error::InvalidOptions(
            "the memory reference must be an object { scope, id }".to_owned(),
        )));
    }
    let r: MemoryRefInput = shaped(value)?;
    r.resolve()
        .map_err(|e: StoreError<JsValue>| store_to_js(&e))
}

/// The checked save options (`baseRevision` is required).
fn save_options(value: Option<JsValue>) -> Result<StoreSaveOptions, JsValue> {
    let options: StoreSaveOptionsInput = input(value)?;
    options
        .resolve()
        .map_err(|e: StoreError<JsValue>| store_to_js(&e))
}

/// A revision argument: a whole number ≥ 1.
fn revision_arg(value: &JsValue) -> Result<u64, JsValue> {
    let n = value.as_f64().ok_or_else(|| {
        store_to_js(&StoreError::InvalidRevision(format!(
            "a revision is a number, not {}",
            found(value)
        )))
    })?;
    revision_number(n, false).map_err(|e: StoreError<JsValue>| store_to_js(&e))
}

/// `MemoryStore` of API.md. Internal: `core.js` wraps it in the public class
/// whose methods return promises.
#[wasm_bindgen(js_name = MemoryStore, skip_typescript)]
pub struct JsMemoryStore {
    store: Rc<Store>,
    /// The content this store last saved or loaded, with its JavaScript
    /// string: the next load most often hands back the same content, which
    /// then costs a slice of that string rather than a conversion.
    content: Rc<Kept>,
}

#[wasm_bindgen(js_class = MemoryStore)]
impl JsMemoryStore {
    /// A store over `host` (an object with `get` and `put` methods).
    ///
    /// # Errors
    /// `options/invalid` for a host without those methods, options of the
    /// wrong shape, a `rewrite`/`now` that is not a function or a bad
    /// `timeoutMs`;
    /// `options/invalid-limits`, `options/invalid-key-prefix`,
    /// `options/invalid-history-depth`.
    #[wasm_bindgen(constructor)]
    pub fn new(host: JsValue, options: Option<JsValue>) -> Result<JsMemoryStore, JsValue> {
        let has = |method: &str| {
            host.is_object()
                && Reflect::get(&host, &JsValue::from_str(method)).is_ok_and(|f| f.is_function())
        };
        if !(has("get") && has("put")) {
            return Err(to_js(&Error::InvalidOptions(
                "the host must be an object with get and put methods".to_owned(),
            )));
        }
        let raw = options.unwrap_or(JsValue::UNDEFINED);
        let rewrite = function_option(&raw, "rewrite")?.map(JsRewrite);
        let now = function_option(&raw, "now")?;
        let input: StoreOptionsInput = input(Some(raw))?;
        let mut resolved = input
            .resolve()
            .map_err(|e: StoreError<JsValue>| store_to_js(&e))?;
        resolved.now = Some(clock(now));
        let host = JsHost {
            object: host,
            timeout_ms: resolved.timeout_ms,
            value: Kept::new(),
        };
        let store = crate::store::MemoryStore::new(host, resolved).map_err(|e| store_to_js(&e))?;
        let store = store.with_optional_rewrite(rewrite);
        Ok(Self {
            store: Rc::new(store),
            content: Rc::new(Kept::new()),
        })
    }

    /// The memory as stored now (`Loaded`).
    ///
    /// # Errors
    /// A bad reference at once; store errors when the task runs.
    pub fn load(&self, r: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let store = Rc::clone(&self.store);
        let content = Rc::clone(&self.content);
        Ok(Task::new(async move {
            let loaded = store.load(&r).await.map_err(|e| store_to_js(&e))?;
            view_kept::<_, Loaded>(loaded, |l| &mut l.content, "content", &content).map(Into::into)
        }))
    }

    /// Save `updated` (`SaveOutcome`).
    ///
    /// # Errors
    /// A bad reference, text or options at once; store errors when the task
    /// runs.
    pub fn save(
        &self,
        r: &JsValue,
        updated: &JsValue,
        options: Option<JsValue>,
    ) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        // Most often an edit of the memory this store saved or loaded last.
        let source = string_near(updated, "updated", &self.content)?;
        let options = save_options(options)?;
        let store = Rc::clone(&self.store);
        let content = Rc::clone(&self.content);
        let updated = updated.clone();
        Ok(Task::new(async move {
            let outcome = store
                .save(&r, &source, &options)
                .await
                .map_err(|e| store_to_js(&e))?;
            // The content saved is most often the update itself.
            let result = view_repeating::<_, _, SaveOutcome>(
                SaveOutcomeView::from(&outcome),
                |o| &mut o.content,
                "content",
                &updated,
                &source,
            )?;
            content.keep(updated, source);
            Ok(result.into())
        }))
    }

    /// The audit trail, newest first (`AuditEntry[]`).
    ///
    /// # Errors
    /// As for [`JsMemoryStore::load`].
    pub fn history(&self, r: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let entries = store.history(&r).await.map_err(|e| store_to_js(&e))?;
            let views: Vec<AuditEntryView> = entries.iter().map(AuditEntryView::from).collect();
            view::<AuditEntryList>(&views).map(Into::into)
        }))
    }

    /// The content of `revision` (`string | null`).
    ///
    /// # Errors
    /// A bad reference or revision at once; store errors when the task runs.
    pub fn revision(&self, r: &JsValue, revision: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let revision = revision_arg(revision)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let content = store
                .revision(&r, revision)
                .await
                .map_err(|e| store_to_js(&e))?;
            Ok(content.map_or(JsValue::NULL, |c| JsValue::from_str(&c)))
        }))
    }

    /// Save the content of `revision` again (`SaveOutcome`).
    ///
    /// # Errors
    /// As for [`JsMemoryStore::save`] and [`JsMemoryStore::revision`].
    pub fn revert(
        &self,
        r: &JsValue,
        revision: &JsValue,
        options: Option<JsValue>,
    ) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let revision = revision_arg(revision)?;
        let options = save_options(options)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let outcome = store
                .revert(&r, revision, &options)
                .await
                .map_err(|e| store_to_js(&e))?;
            view::<SaveOutcome>(&SaveOutcomeView::from(&outcome)).map(Into::into)
        }))
    }

    /// Expire old entries as one new revision, or write nothing
    /// (`SweepOutcome`).
    ///
    /// # Errors
    /// A bad reference or options at once; store errors when the task runs.
    pub fn sweep(&self, r: &JsValue, options: JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let options: SweepOptionsInput = input(Some(options))?;
        let options = options
            .resolve()
            .map_err(|e: StoreError<JsValue>| store_to_js(&e))?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let outcome = store
                .sweep(&r, &options)
                .await
                .map_err(|e| store_to_js(&e))?;
            view::<SweepOutcome>(&outcome).map(Into::into)
        }))
    }
}
