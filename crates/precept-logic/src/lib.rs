//! Precept's logic: the SMT-LIB fragment, the policy model as plain data,
//! and documents split into spans. No solver, no runtime, no terminal.

pub mod document;
pub mod error;
pub mod model;
pub mod smt;

pub use error::{Error, Result};
