//! Store calls in progress, driven by the package's JavaScript.
//!
//! A panic in wasm32 is a trap. Polled from a microtask that JavaScript does
//! not watch, a trap would escape as an uncaught exception (which ends a Node
//! process) and the call's promise would never settle. So each async export
//! returns a [`Task`] instead, and `panic.js` (`settle`) turns it into a
//! promise: it calls [`Task::poll`] inside a `try`, so a trap becomes a
//! rejection with the `internal/panic` error like any synchronous export's.
//!
//! A task waits only for JavaScript: the host's answers and the rewrite
//! callback's, each through an [`Answer`]. The poll that reaches an answer
//! not yet had leaves it with the task ([`Task::awaited`]); `settle` waits
//! for it with one `then` and polls again with how it settled. No closure is
//! made and no waker runs per await (with `wasm-bindgen-futures`' `JsFuture`,
//! two closures were made for every host call and its waker queued a
//! microtask of its own: BENCHMARKS.md, "The store's host calls awaited by
//! JavaScript").

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::js::error::BoundaryError;

use crate::base::errors::boundary_to_js;

/// What a store call computes: its JavaScript result, or the `Error` to
/// reject with.
pub(crate) type Work = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

thread_local! {
    /// The value the task being polled waits for, from the [`Answer`] that
    /// reached it to the end of that poll.
    static AWAITED: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// How the value a task waited for settled, from the start of the poll
    /// that resumes it to the [`Answer`] that takes it.
    static SETTLED: RefCell<Option<Result<JsValue, JsValue>>> = const { RefCell::new(None) };
}

/// A JavaScript value awaited by the task that polls it: a promise's
/// outcome, or the value itself when it is not a thenable (`settle`
/// resolves a promise of its own with it).
pub(crate) struct Answer(Option<JsValue>);

impl Answer {
    /// Waits for `value`.
    pub(crate) fn new(value: JsValue) -> Self {
        Self(Some(value))
    }
}

impl Future for Answer {
    type Output = Result<JsValue, JsValue>;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        if let Some(value) = self.0.take() {
            AWAITED.with(|a| *a.borrow_mut() = Some(value));
            return Poll::Pending;
        }
        match SETTLED.with(|s| s.borrow_mut().take()) {
            Some(settled) => Poll::Ready(settled),
            None => Poll::Pending,
        }
    }
}

/// The waker of every poll. Nothing wakes a task: `settle` polls it again
/// when what it awaits has settled.
struct Unused;

impl Wake for Unused {
    fn wake(self: Arc<Self>) {}
}

/// A store call in progress. Internal: the package's JavaScript polls it and
/// exposes a promise.
#[wasm_bindgen(js_name = __Task, skip_typescript)]
pub struct Task {
    work: Option<Work>,
    /// What the last poll left waiting.
    awaited: Option<JsValue>,
}

impl Task {
    /// A task computing `work`.
    pub(crate) fn new(work: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Self {
        Self {
            work: Some(Box::pin(work)),
            awaited: None,
        }
    }
}

/// What `settle` passes to [`Task::poll`] (pkg-template/panic.js names
/// the same numbers): the first poll, with nothing settled yet.
const FIRST: u32 = 0;
/// The value the task waited for was fulfilled (any other number: rejected).
const FULFILLED: u32 = 1;

#[wasm_bindgen(js_class = __Task)]
impl Task {
    /// Poll once, first with `settled` [`FIRST`], then, after each poll
    /// that left a value waiting ([`awaited`](Self::awaited)), with how it
    /// settled: `FULFILLED` (1) with its value, or rejected (2) with the
    /// reason. Returns `undefined` while a value is awaited and the result
    /// when done (results are never `undefined`).
    ///
    /// # Errors
    /// The call's own error when it failed; `internal/error` when polled
    /// after it finished, or when it stopped without waiting for anything.
    pub fn poll(&mut self, settled: u32, value: JsValue) -> Result<Option<JsValue>, JsValue> {
        let Some(work) = self.work.as_mut() else {
            return Err(internal("a store call was polled after it finished"));
        };
        let settled = match settled {
            FIRST => None,
            FULFILLED => Some(Ok(value)),
            _ => Some(Err(value)),
        };
        SETTLED.with(|s| *s.borrow_mut() = settled);
        let waker = Waker::from(Arc::new(Unused));
        let polled = work.as_mut().poll(&mut Context::from_waker(&waker));
        // Taken whatever happened: neither outlives this poll.
        SETTLED.with(|s| s.borrow_mut().take());
        self.awaited = AWAITED.with(|a| a.borrow_mut().take());
        match polled {
            Poll::Ready(result) => {
                self.work = None;
                result.map(Some)
            }
            Poll::Pending if self.awaited.is_some() => Ok(None),
            Poll::Pending => {
                self.work = None;
                Err(internal(
                    "a store call stopped without waiting for anything",
                ))
            }
        }
    }

    /// The value the last poll left the task waiting for (`undefined` when
    /// none); taken.
    pub fn awaited(&mut self) -> JsValue {
        self.awaited.take().unwrap_or(JsValue::UNDEFINED)
    }
}

fn internal(why: &str) -> JsValue {
    boundary_to_js(&BoundaryError::Internal(why.to_owned()))
}
