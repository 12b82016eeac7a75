//! Every check on the solver worker's thread goes through this gate.
//!
//! Z3 keeps an interrupt that arrives between two checks and spends it on
//! the next check, which then answers `sat` without having looked at its
//! assertions: a wrong finding (seen after a cancelled explanation). So the
//! watchdog interrupts only while a check runs (`watchdog::interrupt`), a
//! check that an interrupt reached answers unknown whatever Z3 said, and a
//! leftover interrupt is spent on an empty solver before the next check.

use super::watchdog::Watch;
use std::cell::RefCell;
use std::sync::Arc;
use z3::ast::Bool;
use z3::{SatResult, Solver};

thread_local! {
    /// The watch of the worker running on this thread, if any.
    static GATE: RefCell<Option<Arc<Watch>>> = const { RefCell::new(None) };
}

/// Makes every check on this thread (the worker's) go through `watch`.
pub(super) fn install_gate(watch: Arc<Watch>) {
    GATE.with(|gate| *gate.borrow_mut() = Some(watch));
}

/// Checks `solver` under `assumptions`. On the worker's thread the check
/// is gated: it does not start once the request has stopped, and a check
/// that an interrupt reached answers unknown. Elsewhere it is a plain check.
pub(super) fn gated_check(solver: &Solver, assumptions: &[Bool]) -> SatResult {
    let watch = GATE.with(|gate| gate.borrow().clone());
    let Some(watch) = watch else {
        return solver.check_assumptions(assumptions);
    };
    {
        let mut state = watch.lock();
        if state
            .running
            .as_ref()
            .is_some_and(|r| r.stop_reason.is_some())
        {
            return SatResult::Unknown;
        }
        state.in_check = true;
        state.interrupted = false;
    }
    let result = solver.check_assumptions(assumptions);
    let mut state = watch.lock();
    state.in_check = false;
    if std::mem::take(&mut state.interrupted) {
        // The interrupt may have arrived after Z3 finished: spend it here,
        // on a solver with nothing in it, so the next check is not cut short.
        Solver::new().check();
        return SatResult::Unknown;
    }
    result
}

/// Sets Z3's own timeout on `solver`, `timeout_ms` and a little more, as a
/// backstop for checks made off the worker (where no watchdog bounds
/// them). On a worker's thread, whose every check the watchdog bounds by
/// the request's deadline or a check budget, it sets none
/// (`watchdog_only`).
pub(super) fn backstop_timeout(solver: &Solver, timeout_ms: u64) {
    if GATE.with(|gate| gate.borrow().is_some()) {
        return watchdog_only(solver);
    }
    let mut params = z3::Params::new();
    let backstop = u32::try_from(timeout_ms.saturating_add(250)).unwrap_or(u32::MAX);
    params.set_u32("timeout", backstop);
    solver.set_params(&params);
}

/// Lifts Z3's own timeout from `solver` (`SolverSession::set_timeout`'s
/// backstop), for a solver whose every check goes through this gate under a
/// check budget the watchdog keeps: Z3 starts and stops a timer thread for
/// every check that has a timeout, which costs more than a short check.
pub(super) fn watchdog_only(solver: &Solver) {
    let mut params = z3::Params::new();
    params.set_u32("timeout", u32::MAX);
    solver.set_params(&params);
}

/// A value that does not leave the thread it was made on, marked `Send` and
/// `Sync` only to pass through `z3::with_z3_context`, which runs its
/// callback at once on the calling thread.
struct SameThread<T>(T);
// SAFETY: see above: the value is used on the thread that made it only.
unsafe impl<T> Send for SameThread<T> {}
// SAFETY: as for Send.
unsafe impl<T> Sync for SameThread<T> {}

impl<T> SameThread<T> {
    fn into_inner(self) -> T {
        self.0
    }
}

/// Runs `work` on this thread with a Z3 context of its own, which the
/// worker's watchdog interrupts meanwhile, so that what `work` finds does
/// not depend on what this thread's context did before. `work` must not
/// panic (catch inside it) and must return no Z3 object.
pub(super) fn in_fresh_context<R>(work: impl FnOnce() -> R) -> R {
    let watch = GATE.with(|gate| gate.borrow().clone());
    let job = SameThread((work, watch));
    let result = z3::with_z3_config(&z3::Config::new(), move || {
        let (work, watch) = job.into_inner();
        let address = super::encode::context_address();
        let previous = watch
            .as_ref()
            .map(|watch| std::mem::replace(&mut watch.lock().context, address));
        let result = work();
        super::encode::forget_enum_sorts(address);
        // Back to the thread's own context before this one goes.
        if let (Some(watch), Some(previous)) = (&watch, previous) {
            watch.lock().context = previous;
        }
        SameThread(result)
    });
    result.into_inner()
}
