//! What the store needs from its surroundings: a key-value [`Host`] with a
//! conditional put, and an optional [`Rewrite`] callback (an LLM) for
//! documents over the hard limit. Both are async traits that do not require
//! `Send`, so a wasm binding can implement them over JavaScript promises
//! (JavaScript values, which are `!Send`); the store itself never spawns,
//! sleeps or touches a clock or a network.

// The traits deliberately leave `Send` open: the wasm binding's futures are
// `!Send`, and native users who need `Send` futures get them from `Send` hosts.
#![allow(async_fn_in_trait)]

use std::convert::Infallible;
use std::future::Future;

use super::error::HostFailure;

/// A stored value and the version the host gave it (an etag, a Deno
/// versionstamp, a counter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned {
    /// The stored string.
    pub value: String,
    /// Its version, passed back as `expected_version` to replace it.
    pub version: String,
}

/// The answer to a conditional put.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PutOutcome {
    /// The value was written; this is its new version.
    Written {
        /// The new version.
        version: String,
    },
    /// The key's version was not the expected one (or the key existed when
    /// it was expected absent): nothing was written.
    VersionMismatch,
}

/// The answer to a delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// The key is absent now (whether or not it was present before).
    Deleted,
    /// The host cannot delete; the key stays. Old snapshots then stay until
    /// the host expires them or a maintenance job removes them.
    Unsupported,
}

/// A key-value store the engine keeps its records in.
///
/// `put` must write only if the key's current version equals
/// `expected_version` (`None` = the key must be absent). Hosts without
/// compare-and-swap (Workers KV, `localStorage`) can only approximate this:
/// their writes are best effort, last write wins.
///
/// `delete` is optional: the default answers
/// [`DeleteOutcome::Unsupported`], so a host written before it existed keeps
/// working (and keeps every old snapshot).
pub trait Host {
    /// The host's own failure, passed through unchanged as the cause of
    /// `store/host-failed`.
    type Error;

    /// The value and version at `key`, `None` when the key is absent.
    async fn get(&self, key: &str) -> Result<Option<Versioned>, HostFailure<Self::Error>>;

    /// Write `value` at `key` if its version is `expected_version`.
    async fn put(
        &self,
        key: &str,
        value: &str,
        expected_version: Option<&str>,
    ) -> Result<PutOutcome, HostFailure<Self::Error>>;

    /// Remove `key`; removing an absent key is not an error. The store only
    /// deletes snapshot keys that the head it has just written no longer
    /// names.
    async fn delete(&self, key: &str) -> Result<DeleteOutcome, HostFailure<Self::Error>> {
        let _ = key;
        Ok(DeleteOutcome::Unsupported)
    }
}

impl<H: Host + ?Sized> Host for &H {
    type Error = H::Error;

    async fn get(&self, key: &str) -> Result<Option<Versioned>, HostFailure<Self::Error>> {
        (**self).get(key).await
    }

    async fn put(
        &self,
        key: &str,
        value: &str,
        expected_version: Option<&str>,
    ) -> Result<PutOutcome, HostFailure<Self::Error>> {
        (**self).put(key, value, expected_version).await
    }

    async fn delete(&self, key: &str) -> Result<DeleteOutcome, HostFailure<Self::Error>> {
        (**self).delete(key).await
    }
}

/// What the rewrite callback is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteRequest {
    /// Instructions for the model, ending with the document.
    pub prompt: String,
    /// The canonical document that is over the hard limit.
    pub content: String,
    /// The size to reach, in code points.
    pub target: usize,
}

/// A callback that shortens a document that is over the hard limit
/// (typically an LLM call). Its reply is planned like any other save and
/// accepted only if it is saved, non-empty, not a sentinel and smaller.
///
/// Any `Fn(RewriteRequest) -> impl Future<Output = Result<String, E>>`
/// is a `Rewrite`.
pub trait Rewrite {
    /// Why a rewrite failed; it makes the save fall back to `rejected`.
    type Error;

    /// The rewritten document.
    async fn rewrite(&self, request: RewriteRequest) -> Result<String, Self::Error>;
}

impl<F, Fut, E> Rewrite for F
where
    F: Fn(RewriteRequest) -> Fut,
    Fut: Future<Output = Result<String, E>>,
{
    type Error = E;

    async fn rewrite(&self, request: RewriteRequest) -> Result<String, E> {
        self(request).await
    }
}

/// The absence of a rewrite callback: a store built without one rejects a
/// document over the hard limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRewrite {}

impl Rewrite for NoRewrite {
    type Error = Infallible;

    async fn rewrite(&self, _: RewriteRequest) -> Result<String, Infallible> {
        match *self {}
    }
}
