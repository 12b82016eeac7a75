//! What a benchmark used besides wall time: CPU time of the whole process
//! (every thread, so the solver workers too) and its peak memory, also of
//! one measurement alone in a fresh copy of the benchmark process.
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

/// The argument that starts a copy of the benchmark to run one
/// measurement alone: `<bench> --isolated <name>`.
const ISOLATED: &str = "--isolated";
/// The line an isolated measurement ends with: its peak resident memory.
const PEAK_LINE: &str = "isolated peak memory (VmHWM) kB:";

/// The measurement this process was started to run alone, if any.
pub fn isolated_measurement() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == ISOLATED)?;
    args.get(at + 1).cloned()
}

/// The process's peak resident memory (`VmHWM` of /proc/self/status), in kB.
fn high_water_mark_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Ends an isolated measurement: prints its peak memory for the parent
/// (`peak_memory_in_fresh_process`) and exits.
pub fn finish_isolated() -> ! {
    println!("{PEAK_LINE} {}", high_water_mark_kb().unwrap_or(0));
    std::process::exit(0)
}

/// Runs measurement `name` alone in a fresh copy of this benchmark (which
/// must call `isolated_measurement` first thing and `finish_isolated` after
/// the measurement), so nothing measured before counts: its peak resident
/// memory in MB, or why it could not be had.
pub fn peak_memory_in_fresh_process(name: &str) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| format!("no path to this benchmark: {e}"))?;
    let output = std::process::Command::new(&exe)
        .args([ISOLATED, name])
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "the measurement {name} failed ({}): {}",
            output.status,
            stdout.lines().last().unwrap_or("")
        ));
    }
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(PEAK_LINE))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb as f64 / 1024.0)
        .ok_or_else(|| format!("the measurement {name} reported no peak memory"))
}
