//! The linter: syntactic checks over the model, and solver-backed checks run
//! on the solver worker with a deadline per check.

pub mod conflict_groups;
pub mod full;
pub mod syntactic;

pub use crate::model::diagnostic::{Diagnostic, Fix, LintCode, LintCounts, ModelEdit, Severity};
pub mod triage;
