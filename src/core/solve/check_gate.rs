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
