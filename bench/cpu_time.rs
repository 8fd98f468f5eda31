//! The benchmarks' clock: this thread's CPU time, since the machine they
//! measure on may be shared. `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
//! counts the running slice to the nanosecond; Linux's
//! `/proc/thread-self/schedstat` does not: it is brought up to date at the
//! scheduler's tick (4 ms here) or a switch, so on a quiet machine a 4 ms
//! pass read as 4 or 8 ms.

/// This thread's CPU time so far, in milliseconds.
pub fn cpu_ms() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write; the clock exists on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    now.tv_sec as f64 * 1e3 + now.tv_nsec as f64 / 1e6
}
