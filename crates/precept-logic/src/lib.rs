//! Precept's logic: the SMT-LIB fragment, the policy model as plain data,
//! and documents split into spans. No solver, no runtime, no terminal.

pub mod document;
pub mod model;
pub mod smt;
