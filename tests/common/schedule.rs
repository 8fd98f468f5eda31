//! A cooperative scheduler for racing store calls natively: it polls
//! several futures, choosing the next one with a seeded generator, so that
//! the reads and writes of different callers interleave (with a host that
//! yields, such as `MemoryHost::with_delays`).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct Noop;
impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

/// A boxed future the scheduler polls.
pub type Task<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Poll every task, choosing the next one with a seeded generator, until
/// all are done; returns their outputs in task order.
pub fn run_all<T>(mut tasks: Vec<Task<'_, T>>, mut seed: u64) -> Vec<T> {
    let waker = Waker::from(Arc::new(Noop));
    let mut cx = Context::from_waker(&waker);
    let mut outputs: Vec<Option<T>> = tasks.iter().map(|_| None).collect();
    let mut pending: Vec<usize> = (0..tasks.len()).collect();
    while !pending.is_empty() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = usize::try_from(seed % pending.len() as u64).unwrap();
        let i = pending[pick];
        if let Poll::Ready(out) = tasks[i].as_mut().poll(&mut cx) {
            outputs[i] = Some(out);
            pending.swap_remove(pick);
        }
    }
    outputs
        .into_iter()
        .map(|o| o.expect("every task finished"))
        .collect()
}
