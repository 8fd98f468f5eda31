//! A minimal executor for driving the store without an async runtime:
//! enough for hosts whose futures never wait on anything outside the
//! current thread (like [`MemoryHost`](super::MemoryHost)). Real hosts run
//! under their own runtime (the JavaScript event loop, tokio, …).

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct NoopWaker;

impl Wake for NoopWaker {
    fn wake(self: Arc<Self>) {}
}

/// Run `future` to completion on this thread by polling it until it is
/// ready. A future that waits for another thread or for I/O makes this spin,
/// so use it only with hosts that complete on their own (tests, in-memory
/// stores).
///
/// ```
/// assert_eq!(memdoc::store::block_on(async { 1 + 1 }), 2);
/// ```
pub fn block_on<F: Future>(future: F) -> F::Output {
    let waker = Waker::from(Arc::new(NoopWaker));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        std::hint::spin_loop();
    }
}
