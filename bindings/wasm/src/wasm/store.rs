//! The store for JavaScript (API.md, "Persistence through the host"): the
//! exported `MemoryStore` class, the core's
//! [`MemoryStore`](memdoc::store::MemoryStore) over a JavaScript `KvHost`
//! object ([`JsHost`], in [`host`](super::host)), with the caller's optional
//! `rewrite` and `now` functions.
//!
//! Everything here converts: arguments are checked before any host call;
//! results are the store's views through the default wire format. Each method returns a
//! [`Task`] that `core.js` turns into a promise (see [`super::task`]).

use std::rc::Rc;

use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::js::input::{
    revision_number, MemoryRefInput, StoreOptionsInput, StoreSaveOptionsInput, StoredRecordsInput,
    SweepOptionsInput,
};
use crate::js::store::{AuditEntryView, RewriteRequestView, SaveOutcomeView};
use memdoc::store::{Clock, MemoryRef, Rewrite, RewriteRequest, StoreError, StoreSaveOptions};
use memdoc::Error;

use super::convert::{input, shaped, string_near, view, view_kept, view_repeating};
use super::host::JsHost;
use super::read::found;
use super::task::{Answer, Task};
use super::text::Kept;
use crate::base::errors::{store_to_js, to_js};
use crate::base::types::{AuditEntryList, Loaded, SaveOutcome, SweepOutcome};

/// The core store over a JavaScript host, with the caller's `rewrite`
/// function or without one (a run-time choice, so that the store is
/// compiled for one type only).
type Store = memdoc::store::MemoryStore<JsHost, JsRewrite>;

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

/// A revision as a JavaScript number.
// Revisions are at most `MAX_REVISION` (2^53 - 1): exact as a number.
#[allow(clippy::cast_precision_loss)]
fn revision_js(revision: u64) -> JsValue {
    JsValue::from(revision as f64)
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
        let store = memdoc::store::MemoryStore::new(host, resolved).map_err(|e| store_to_js(&e))?;
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

    /// The memory's records as stored (`StoredRecords | null`).
    ///
    /// # Errors
    /// A bad reference at once; store errors when the task runs.
    #[wasm_bindgen(js_name = exportRecords)]
    pub fn export_records(&self, r: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let records = store
                .export_records(&r)
                .await
                .map_err(|e| store_to_js(&e))?;
            records.map_or(Ok(JsValue::NULL), |records| view(&records))
        }))
    }

    /// Check and write a memory's records, the head last (its revision).
    ///
    /// # Errors
    /// A bad reference or records of the wrong shape at once; store errors
    /// when the task runs.
    #[wasm_bindgen(js_name = importRecords)]
    pub fn import_records(&self, r: &JsValue, records: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let records: StoredRecordsInput = shaped(records)?;
        let records = records
            .resolve()
            .map_err(|e: StoreError<JsValue>| store_to_js(&e))?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let revision = store
                .import_records(&r, &records)
                .await
                .map_err(|e| store_to_js(&e))?;
            Ok(revision_js(revision))
        }))
    }

    /// Delete the memory's records, the head first (whether there was one).
    ///
    /// # Errors
    /// A bad reference at once; store errors when the task runs.
    pub fn purge(&self, r: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let purged = store.purge(&r).await.map_err(|e| store_to_js(&e))?;
            Ok(JsValue::from(purged))
        }))
    }

    /// The revision of the stored head, read without the store's checks.
    ///
    /// # Errors
    /// A bad reference at once; store errors when the task runs.
    #[wasm_bindgen(js_name = storedRevision)]
    pub fn stored_revision(&self, r: &JsValue) -> Result<Task, JsValue> {
        let r = memory_ref(r)?;
        let store = Rc::clone(&self.store);
        Ok(Task::new(async move {
            let revision = store
                .stored_revision(&r)
                .await
                .map_err(|e| store_to_js(&e))?;
            Ok(revision_js(revision))
        }))
    }

    /// The key of the memory's head record in the host.
    ///
    /// # Errors
    /// A bad reference.
    #[wasm_bindgen(js_name = headKey)]
    pub fn head_key(&self, r: &JsValue) -> Result<String, JsValue> {
        Ok(self.store.head_key(&memory_ref(r)?))
    }
}
