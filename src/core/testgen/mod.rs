//! Symbolic test generation, coverage and mutation.

pub mod coverage;
pub mod generate;
pub mod mutation;
