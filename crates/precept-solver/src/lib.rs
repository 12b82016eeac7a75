//! Everything that asks Z3: the solver's sessions and workers, lint,
//! generated tests, test runs and explanations. The only crate that uses
//! Z3; the logic crate's modules are re-exported so paths read the same
//! in every crate.

pub use precept_logic::{document, model, smt};

pub mod error;
pub mod explain;
pub mod lint;
pub mod solve;
pub mod test_runner;
pub mod testgen;

pub use error::{Error, Result};
