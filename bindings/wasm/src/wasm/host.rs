//! The store's host over a JavaScript `KvHost` object ([`JsHost`]): it
//! calls `host.get`/`host.put`/`host.delete`, awaits the answers (at most
//! `timeoutMs` each, when given: [`HostFailure::TimedOut`], by the timer of
//! `host.js` beside this file) and checks their shapes (a wrong shape
//! is [`HostFailure::Malformed`], a throw or rejection is
//! [`HostFailure::Error`] with the original value, which reaches the caller
//! unchanged as the error's `cause`). The exported class over it is in
//! [`store`](super::store).

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use memdoc::store::{DeleteOutcome, Host, HostFailure, PutOutcome, Versioned};

use super::panic::test_trigger;
use super::read::found;
use super::task::Answer;
use super::text::Kept;
use crate::base::names::name;

/// A `KvHost` object.
pub(super) struct JsHost {
    pub(super) object: JsValue,
    /// The store's `timeoutMs`: how long each answer is awaited.
    pub(super) timeout_ms: Option<u32>,
    /// The value this store last wrote or read, with its conversion: a
    /// save reads back the head record it wrote or read last, and a host
    /// that keeps strings as they are hands back the very string. A value
    /// written is made with what it repeats of this one as slices of it
    /// ([`Kept::repeated`]): a save's snapshot repeats the start of the
    /// content of the head read before it, and its head all of the
    /// snapshot's content.
    pub(super) value: Kept,
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

#[wasm_bindgen(module = "/src/wasm/host.js")]
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
