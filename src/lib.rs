//! Precept: a workbench for vetting policy models with an SMT solver.

pub mod cli;
pub mod core;
pub mod service;
pub mod tui;
