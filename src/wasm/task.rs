//! Store calls in progress, polled by the package's JavaScript instead of
//! by `wasm-bindgen-futures`' queue.
//!
//! A panic in wasm32 is a trap. Polled from `wasm-bindgen-futures`' microtask
//! queue, a trap escapes from a microtask as an uncaught exception (which
//! ends a Node process) and the call's promise never settles. So each async
//! export returns a [`Task`] instead, and `core.js` turns it into a promise:
//! it calls [`Task::poll`] inside a `try`, once at once and again whenever the
//! task is woken, so a trap becomes a rejection with the `internal/panic`
//! error like any synchronous export's. Host promises are still awaited with
//! `JsFuture`; its callbacks wake the task, and the waker asks JavaScript for
//! the next poll.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use js_sys::Function;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::js::error::BoundaryError;

use super::errors::boundary_to_js;

/// What a store call computes: its JavaScript result, or the `Error` to
/// reject with.
pub(crate) type Work = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

thread_local! {
    /// The JavaScript function that schedules the next poll of each live
    /// task. A `Waker` must be `Send + Sync`, which a JavaScript function is
    /// not, so wakers hold the task's number and look the function up here.
    /// By task number, in order (numbers only grow, so a new task goes last).
    static WAKE: RefCell<Vec<(u64, Function)>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// Wakes the task with this number.
struct TaskWaker(u64);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Cloned out first: the function runs JavaScript, which must not find
        // the table borrowed.
        let wake = WAKE.with(|w| {
            let table = w.borrow();
            let at = table.binary_search_by_key(&self.0, |(id, _)| *id).ok()?;
            Some(table[at].1.clone())
        });
        if let Some(wake) = wake {
            // The package's `wake` only queues a microtask; it does not throw.
            let _ = wake.call0(&JsValue::UNDEFINED);
        }
    }
}

/// A store call in progress. Internal: the package's JavaScript polls it and
/// exposes a promise.
#[wasm_bindgen(js_name = __Task, skip_typescript)]
pub struct Task {
    id: u64,
    work: Option<Work>,
}

impl Task {
    /// A task computing `work`.
    pub(crate) fn new(work: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Self {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        Self {
            id,
            work: Some(Box::pin(work)),
        }
    }
}

#[wasm_bindgen(js_class = __Task)]
impl Task {
    /// Poll once; `wake` is called (with no arguments) when the task can make
    /// progress again. Returns `undefined` while pending and the result when
    /// done (results are never `undefined`).
    ///
    /// # Errors
    /// The call's own error when it failed; `internal/error` when polled
    /// after it finished.
    pub fn poll(&mut self, wake: Function) -> Result<Option<JsValue>, JsValue> {
        let Some(work) = self.work.as_mut() else {
            return Err(boundary_to_js(&BoundaryError::Internal(
                "a store call was polled after it finished".to_owned(),
            )));
        };
        WAKE.with(|w| {
            let mut table = w.borrow_mut();
            match table.binary_search_by_key(&self.id, |(id, _)| *id) {
                Ok(at) => table[at].1 = wake,
                Err(at) => table.insert(at, (self.id, wake)),
            }
        });
        let waker = Waker::from(Arc::new(TaskWaker(self.id)));
        match work.as_mut().poll(&mut Context::from_waker(&waker)) {
            Poll::Pending => Ok(None),
            Poll::Ready(result) => {
                self.work = None;
                forget(self.id);
                result.map(Some)
            }
        }
    }
}

/// Remove the task `id` from the table. Never panics (it runs in a drop): a
/// task freed while the table is borrowed (impossible today) would only
/// leave its entry behind.
fn forget(id: u64) {
    WAKE.with(|w| {
        if let Ok(mut table) = w.try_borrow_mut() {
            if let Ok(at) = table.binary_search_by_key(&id, |(id, _)| *id) {
                table.remove(at);
            }
        }
    });
}

impl Drop for Task {
    fn drop(&mut self) {
        forget(self.id);
    }
}
