//! [`MemoryHost`]: a [`Host`] kept in memory, with compare-and-swap by
//! version. It is a real host for tests, examples and single-process
//! programs. With the `test-util` feature it can be told to misbehave: fail
//! or answer malformed data on the Nth call, run a hook before a call (to
//! change a key between a store's read and its write), yield to other tasks
//! a pseudo-random number of times per call, so that a cooperative
//! scheduler can interleave several writers deterministically, and behave
//! like a host without `delete`. Without the feature none of that can be
//! asked for, and every call simply does what it says.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

use super::error::HostFailure;
use super::host::{DeleteOutcome, Host, PutOutcome, Versioned};
use crate::quoted::Quoted;

/// A misbehaviour [`MemoryHost`] can be told to show on one call (feature
/// `test-util`).
#[cfg_attr(not(feature = "test-util"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The call fails before doing anything (a rejected promise).
    Fail,
    /// The call fails after a put or delete was carried out (the answer was
    /// lost).
    FailAfterWrite,
    /// The call answers malformed data.
    Malformed,
}

/// The error of a call that [`MemoryHost`] was told to fail (only with the
/// `test-util` feature; without it, calls do not fail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryHostError {
    /// The 1-based number of the call.
    pub call: u64,
    /// The key it was about.
    pub key: String,
}

impl fmt::Display for MemoryHostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "injected failure of call {} on {}",
            self.call,
            Quoted(&self.key)
        )
    }
}

impl std::error::Error for MemoryHostError {}

type Hook = Box<dyn FnOnce(&MemoryHost) + Send>;

#[derive(Default)]
struct State {
    entries: BTreeMap<String, (String, u64)>,
    next_version: u64,
    calls: u64,
    puts: u64,
    deletes: u64,
    no_delete: bool,
    faults: BTreeMap<u64, Fault>,
    hooks: BTreeMap<u64, Hook>,
    max_yields: u32,
    seed: u64,
}

/// A [`Host`] in memory. Versions are increasing integers, as strings.
#[derive(Default)]
pub struct MemoryHost {
    state: Mutex<State>,
}

impl fmt::Debug for MemoryHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.lock();
        f.debug_struct("MemoryHost")
            .field("keys", &s.entries.keys().collect::<Vec<_>>())
            .field("calls", &s.calls)
            .finish_non_exhaustive()
    }
}

impl MemoryHost {
    /// An empty host.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind; keep going.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many `get`, `put` and `delete` calls the host has answered so far.
    pub fn calls(&self) -> u64 {
        self.lock().calls
    }

    /// How many `put` calls the host has received so far.
    pub fn puts(&self) -> u64 {
        self.lock().puts
    }

    /// How many `delete` calls the host has received so far (also while
    /// deletes are unsupported).
    pub fn deletes(&self) -> u64 {
        self.lock().deletes
    }

    /// The value and version at `key`, without counting as a call.
    pub fn peek(&self, key: &str) -> Option<Versioned> {
        self.lock()
            .entries
            .get(key)
            .map(|(value, version)| Versioned {
                value: value.clone(),
                version: version.to_string(),
            })
    }

    /// Write `value` at `key` unconditionally, without counting as a call;
    /// returns the new version.
    pub fn set(&self, key: &str, value: &str) -> String {
        let mut s = self.lock();
        s.next_version += 1;
        let version = s.next_version;
        s.entries
            .insert(key.to_owned(), (value.to_owned(), version));
        version.to_string()
    }

    /// Every key, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.lock().entries.keys().cloned().collect()
    }

    /// Count a call, run its hook, and return its number, its fault and how
    /// many times to yield first.
    fn begin(&self) -> (u64, Option<Fault>, u32) {
        let (call, hook) = {
            let mut s = self.lock();
            s.calls += 1;
            let call = s.calls;
            (call, s.hooks.remove(&call))
        };
        if let Some(hook) = hook {
            hook(self);
        }
        let mut s = self.lock();
        let fault = s.faults.remove(&call);
        let yields = if s.max_yields == 0 {
            0
        } else {
            // xorshift64: deterministic interleavings for a given seed.
            let mut x = s.seed;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.seed = x;
            u32::try_from(x % (u64::from(s.max_yields) + 1)).unwrap_or(0)
        };
        (call, fault, yields)
    }
}

/// Misbehaviour on demand, for tests of code that uses a host.
#[cfg(feature = "test-util")]
impl MemoryHost {
    /// An empty host whose every call first yields to other tasks between
    /// 0 and `max_yields` times, chosen by a generator seeded with `seed`.
    #[must_use]
    pub fn with_delays(seed: u64, max_yields: u32) -> Self {
        let host = Self::new();
        {
            let mut s = host.lock();
            s.max_yields = max_yields;
            s.seed = seed | 1;
        }
        host
    }

    /// Behave like a host without `delete` (`supported = false`): deletes
    /// answer [`DeleteOutcome::Unsupported`] and remove nothing.
    pub fn set_delete_supported(&self, supported: bool) {
        self.lock().no_delete = !supported;
    }

    /// Make call number `call` (1-based, counting every `get`, `put` and
    /// `delete`
    /// since the host was made) misbehave.
    pub fn inject(&self, call: u64, fault: Fault) {
        self.lock().faults.insert(call, fault);
    }

    /// Forget every fault that has not happened yet.
    pub fn clear_faults(&self) {
        self.lock().faults.clear();
    }

    /// Run `hook` just before call number `call` is carried out.
    pub fn before_call(&self, call: u64, hook: impl FnOnce(&MemoryHost) + Send + 'static) {
        self.lock().hooks.insert(call, Box::new(hook));
    }
}

impl Host for MemoryHost {
    type Error = MemoryHostError;

    async fn get(&self, key: &str) -> Result<Option<Versioned>, HostFailure<MemoryHostError>> {
        let (call, fault, yields) = self.begin();
        YieldTimes(yields).await;
        match fault {
            Some(Fault::Fail | Fault::FailAfterWrite) => Err(HostFailure::Error(MemoryHostError {
                call,
                key: key.to_owned(),
            })),
            Some(Fault::Malformed) => Err(HostFailure::Malformed(format!(
                "injected: call {call} answered a record without a string version"
            ))),
            None => Ok(self.peek(key)),
        }
    }

    async fn put(
        &self,
        key: &str,
        value: &str,
        expected_version: Option<&str>,
    ) -> Result<PutOutcome, HostFailure<MemoryHostError>> {
        self.write_call(
            key,
            |s| s.puts += 1,
            "{ ok: \"yes\" }",
            |s| {
                let current = s.entries.get(key).map(|(_, v)| v.to_string());
                if current.as_deref() != expected_version {
                    return PutOutcome::VersionMismatch;
                }
                s.next_version += 1;
                let version = s.next_version;
                s.entries
                    .insert(key.to_owned(), (value.to_owned(), version));
                PutOutcome::Written {
                    version: version.to_string(),
                }
            },
        )
        .await
    }

    async fn delete(&self, key: &str) -> Result<DeleteOutcome, HostFailure<MemoryHostError>> {
        self.write_call(
            key,
            |s| s.deletes += 1,
            "something other than undefined",
            |s| {
                if s.no_delete {
                    DeleteOutcome::Unsupported
                } else {
                    s.entries.remove(key);
                    DeleteOutcome::Deleted
                }
            },
        )
        .await
    }
}

impl MemoryHost {
    /// A call that writes: count it, yield, answer an injected fault instead
    /// of acting (or, for `FailAfterWrite`, after acting), else act.
    async fn write_call<T>(
        &self,
        key: &str,
        count: impl FnOnce(&mut State),
        malformed_answer: &str,
        act: impl FnOnce(&mut State) -> T,
    ) -> Result<T, HostFailure<MemoryHostError>> {
        let (call, fault, yields) = self.begin();
        count(&mut self.lock());
        YieldTimes(yields).await;
        let error = || {
            HostFailure::Error(MemoryHostError {
                call,
                key: key.to_owned(),
            })
        };
        match fault {
            Some(Fault::Fail) => return Err(error()),
            Some(Fault::Malformed) => {
                return Err(HostFailure::Malformed(format!(
                    "injected: call {call} answered {malformed_answer}"
                )))
            }
            Some(Fault::FailAfterWrite) | None => {}
        }
        let outcome = act(&mut self.lock());
        if fault == Some(Fault::FailAfterWrite) {
            return Err(error());
        }
        Ok(outcome)
    }
}

/// Returns `Pending` the given number of times (waking itself), then `Ready`.
struct YieldTimes(u32);

impl Future for YieldTimes {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            Poll::Ready(())
        } else {
            self.0 -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}
