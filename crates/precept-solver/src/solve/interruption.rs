//! How a long job on the solver learns that its request has stopped, and
//! how it bounds single checks. The worker's watch implements it.

use std::time::Duration;

/// Why a check stopped without an answer, as the worker reports it.
pub trait Interruption {
    /// `Some(reason)` once the current request has run out of time or was cancelled.
    fn reason(&self) -> Option<String>;
    /// Limits the next checks to `budget` (None lifts the limit). A check
    /// stopped by this budget answers unknown without ending the request.
    fn limit_checks(&self, budget: Option<Duration>);
    /// Marks the start of one check, so a check budget counts from now.
    fn start_check(&self);
}
