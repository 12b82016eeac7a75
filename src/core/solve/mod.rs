//! The Z3 bridge: findings, the solver session and the worker thread that
//! owns it. Z3 types never leave this module.

mod cone;
mod encode;
pub mod finding;
mod formulas;
pub mod lint_checks;
mod session;
mod verify;
pub mod worker;

pub use finding::{Finding, FindingKind, LogicWarning, Scenario, Value};
pub use formulas::{FormulaQuery, Satisfiability};
pub use session::natural_order;
pub use worker::{FormulaReply, SolverReply, SolverWorker, Ticket};
