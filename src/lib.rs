//! Precept: a workbench for vetting policy models with an SMT solver. This
//! crate is the binary's command line over the engine, the workbench and
//! the service (each a crate of its own under `crates/`).

pub mod cli;

pub use precept_engine::{
    answer, compose, define, document, explain, export, formalize, formats, lifecycle, lint, llm,
    model, probe, repair, scheduler, smt, solve, test_runner, testgen, workspace,
};
pub use precept_service as service;
pub use precept_tui as tui;
