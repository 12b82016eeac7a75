//! The solver worker's watch: the request running now with its deadline
//! and check budget, the cancelled tickets, and the watchdog thread that
//! interrupts the Z3 context when a deadline passes (Z3's own timeout
//! parameter alone is not reliable on non-linear problems) or a request is
//! cancelled.
//!
//! An interrupt reaches Z3 only while a check runs on the worker (why:
//! `check_gate.rs`).

use super::interruption::Interruption;
use std::collections::HashSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Identifies one request.
pub type Ticket = u64;

/// Where a request's deadline counts from. A question split over workers
/// keeps one deadline: a side or a finishing step run later gets what is
/// left of it, not a fresh one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Deadline {
    /// The whole timeout, from when the request starts on its worker.
    #[default]
    Fresh,
    /// The timeout counted from when the question was asked: time spent
    /// waiting for a worker counts (a service request's deadline).
    AskedAt(Instant),
    /// The timeout less the solver time the question already spent on
    /// other requests; time spent waiting in a queue does not count (the
    /// workbench, whose solvers are busy with the expert's own runs).
    AfterSpending(Duration),
}

impl Deadline {
    /// The moment a request under `timeout` that starts `now` must stop.
    pub fn at(self, now: Instant, timeout: Duration) -> Instant {
        match self {
            Deadline::Fresh => now + timeout,
            Deadline::AskedAt(asked) => asked + timeout,
            Deadline::AfterSpending(spent) => now + timeout.saturating_sub(spent),
        }
    }
}

#[derive(Default)]
pub(super) struct WatchState {
    /// The worker's Z3 context (as an address); 0 when none is alive.
    pub(super) context: usize,
    pub(super) running: Option<Running>,
    pub(super) cancelled: HashSet<Ticket>,
    pub(super) shutdown: bool,
    /// A check is running on the worker's context now.
    pub(super) in_check: bool,
    /// An interrupt was sent during the current (or last) check.
    pub(super) interrupted: bool,
    /// When the watchdog, asleep, wakes up by itself (None: it is awake,
    /// or waits to be woken): a check whose deadline comes later need not
    /// wake it, it looks again then.
    pub(super) asleep_until: Option<Instant>,
}

pub(super) struct Running {
    pub(super) ticket: Ticket,
    pub(super) deadline: Instant,
    pub(super) timeout: Duration,
    pub(super) stop_reason: Option<String>,
    /// A tighter deadline for the current checks only (see `limit_checks`).
    pub(super) check_budget: Option<Duration>,
    pub(super) check_deadline: Option<Instant>,
}

#[derive(Default)]
pub(super) struct Watch {
    pub(super) state: Mutex<WatchState>,
    pub(super) wake: Condvar,
}

impl Watch {
    pub(super) fn lock(&self) -> MutexGuard<'_, WatchState> {
        // A panic elsewhere must not take the solver down with it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Interrupts the running check, if one is running: between checks the
/// request's stop reason alone stops it (see the module's comment). Called
/// with the watch lock held, so the context cannot be destroyed and the
/// check cannot end unseen meanwhile.
pub(super) fn interrupt(state: &mut WatchState) {
    if !state.in_check {
        return;
    }
    state.interrupted = true;
    if let Some(context) = std::ptr::NonNull::new(state.context as *mut z3_sys::_Z3_context) {
        // SAFETY: the worker publishes its context's address while it is alive
        // and clears it (under this lock) before the context is dropped;
        // Z3_interrupt is documented as safe to call from another thread.
        unsafe { z3_sys::Z3_interrupt(context) };
    }
}

pub(super) struct WatchedRequest<'a> {
    pub(super) watch: &'a Watch,
}

impl Interruption for WatchedRequest<'_> {
    fn reason(&self) -> Option<String> {
        self.watch
            .lock()
            .running
            .as_ref()
            .and_then(|r| r.stop_reason.clone())
    }

    fn limit_checks(&self, budget: Option<Duration>) {
        // No deadline comes sooner: the watchdog need not be woken.
        if let Some(running) = &mut self.watch.lock().running {
            running.check_budget = budget;
            running.check_deadline = None;
        }
    }

    fn start_check(&self) {
        let mut state = self.watch.lock();
        let asleep_until = state.asleep_until;
        if let Some(running) = &mut state.running
            && let Some(budget) = running.check_budget
        {
            let deadline = Instant::now() + budget;
            running.check_deadline = Some(deadline);
            // Checks are many and short: the watchdog is woken only when
            // this deadline comes before it would look again anyway.
            if asleep_until.is_some_and(|wakes| wakes <= deadline) {
                return;
            }
        }
        drop(state);
        self.watch.wake.notify_all();
    }
}

/// The stop reason of a request past its deadline.
pub(super) fn out_of_time(timeout: Duration) -> String {
    format!("the solver ran out of time ({} ms)", timeout.as_millis())
}

pub(super) fn run_watchdog(watch: &Watch) {
    let mut state = watch.lock();
    loop {
        if state.shutdown {
            return;
        }
        let pending = state
            .running
            .as_ref()
            .filter(|r| r.stop_reason.is_none())
            .map(|r| (r.deadline, r.check_deadline, r.timeout));
        let Some((deadline, check_deadline, timeout)) = pending else {
            state.asleep_until = None;
            state = watch.wake.wait(state).unwrap_or_else(|p| p.into_inner());
            continue;
        };
        let now = Instant::now();
        if now >= deadline {
            if let Some(running) = &mut state.running {
                running.stop_reason = Some(out_of_time(timeout));
            }
            interrupt(&mut state);
        } else if check_deadline.is_some_and(|d| now >= d) {
            // Only this check is over budget: stop it, keep the request going.
            if let Some(running) = &mut state.running {
                running.check_deadline = None;
            }
            interrupt(&mut state);
        } else {
            let wake_at = check_deadline.map_or(deadline, |d| d.min(deadline));
            state.asleep_until = Some(wake_at);
            state = watch
                .wake
                .wait_timeout(state, wake_at - now)
                .map(|(s, _)| s)
                .unwrap_or_else(|p| p.into_inner().0);
            state.asleep_until = None;
        }
    }
}
