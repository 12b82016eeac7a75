//! The Z3 bridge: findings, the solver session and the worker thread that
//! owns it. Z3 types never leave this module.

mod base_model;
mod check_gate;
mod claim_check;
pub mod defaults;
mod encode;
mod error;
mod formulas;
mod group_answers;
mod group_consistency;
mod interruption;
pub mod lint_checks;
mod minimize;
mod mutant_schema;
mod near_check;
mod preference_guards;
mod preferences;
mod session;
mod session_query;
mod sides;
mod split_verify;
mod watchdog;
pub mod worker;
mod worker_jobs;
mod worker_thread;

// Findings are plain data of the model layer; re-exported for the callers
// that get them from the solver.
pub use crate::model::finding::{Assumption, Finding, FindingKind, LogicWarning, Scenario, Value};
pub use defaults::{Defaults, Reading};
pub use encode::EncodeError;
pub use error::SolveError;
pub use formulas::{FormulaQuery, HeldFormula, Satisfiability};
pub use mutant_schema::{MutantVerdict, SchemaTest};
pub use session::{Interruption, SolverSession};
pub use session_query::{ConeRule, Fact, Outcome, SessionQuery};
pub use sides::{Side, SideAnswer, SideVerdict, join_sides, known_from_sides};
pub use split_verify::{LentWorker, QuestionClock, verify_on_two, verify_with_lent};
pub use watchdog::Deadline;
pub use worker::{FormulaReply, SessionTask, SideReply, SolverReply, SolverWorker, Ticket};

/// The version of the Z3 library the solver runs on, e.g. `Z3 4.15.4.0`.
pub fn solver_version() -> String {
    let version = z3::full_version();
    if version.starts_with("Z3") {
        version.to_string()
    } else {
        format!("Z3 {version}")
    }
}
