//! The head record a store last wrote or read, kept with the value it was
//! read from: a save reads back the head it wrote or read last (an agent
//! saves again over its own revision, the editor over the one it loaded),
//! and decoding it again, the whole memory unescaped from JSON, was a
//! visible share of a save through the package (BENCHMARKS.md).
//!
//! Decoding is a function of the key and the value alone (the key names the
//! memory the record must belong to), so a head kept for the same key and
//! the same bytes is the head the value decodes to. What it holds is
//! dropped when another head takes its place.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::record::HeadRecord;

/// Values longer than this are not kept: a store would hold two more copies
/// of the memory (the record and its content) until its next read. The
/// package keeps texts of up to as many UTF-16 units (`KEPT` of
/// bindings/wasm/src/wasm/text/kept.rs).
const LONGEST: usize = 1 << 24;

/// The last head a store wrote or read, if any.
#[derive(Default)]
pub(super) struct LastHead(Mutex<Option<Arc<Known>>>);

/// A head record with the key and value it was read from or written as.
struct Known {
    key: String,
    value: String,
    head: Arc<HeadRecord>,
}

/// `mutex` locked: what it holds is whole at every step, so a panic while it
/// was locked leaves nothing half done.
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl LastHead {
    fn known(&self) -> Option<Arc<Known>> {
        locked(&self.0).clone()
    }

    /// The head `value`, read at `key`, decodes to: the kept one when it
    /// was kept for the same key and bytes, otherwise what `decode` makes
    /// of it, which is then kept.
    ///
    /// # Errors
    /// `decode`'s.
    pub(super) fn decoded<E>(
        &self,
        key: &str,
        value: String,
        decode: impl FnOnce(&str) -> Result<HeadRecord, E>,
    ) -> Result<Arc<HeadRecord>, E> {
        if let Some(known) = self
            .known()
            .filter(|k| k.key == key && crate::fast::eq(&k.value, &value))
        {
            return Ok(known.head.clone());
        }
        let head = Arc::new(decode(&value)?);
        self.keep(key, value, head.clone());
        Ok(head)
    }

    /// Keep `head`, just written at `key` as `value`.
    pub(super) fn keep(&self, key: &str, value: String, head: Arc<HeadRecord>) {
        let known = (value.len() <= LONGEST).then(|| {
            Arc::new(Known {
                key: key.to_owned(),
                value,
                head,
            })
        });
        *locked(&self.0) = known;
    }
}
