//! What a benchmark used besides wall time: CPU time of the whole process
//! (every thread, so the solver workers too) and its peak memory.
#![allow(dead_code)]

use std::time::Duration;

fn usage() -> libc::rusage {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage
}

/// The CPU time (user and system) the process has used so far: on a
/// shared machine it moves far less than wall time with the load.
pub fn cpu_time() -> Duration {
    let usage = usage();
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// The process's peak resident memory so far, in MB (Linux counts KB).
pub fn peak_memory_mb() -> f64 {
    usage().ru_maxrss as f64 / 1024.0
}
