//! The examples' clock: this thread's CPU time (Linux's schedstat), since
//! the machine they measure on may be shared.

/// This thread's CPU time so far, in milliseconds.
pub fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat (Linux)");
    let ns: f64 = stat
        .split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("the time on CPU");
    ns / 1e6
}
