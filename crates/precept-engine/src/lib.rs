//! The engine the three front ends (the command line, the workbench and the
//! service) stand on: every layer below re-exported under one roof, plus
//! the formats other tools speak, export, versions and reports, and the
//! definition pass.

pub use precept_llm::{
    answer, compose, document, explain, formalize, lint, llm, model, probe, repair, smt, solve,
    test_runner, testgen,
};

pub mod define;
pub mod error;
pub mod export;
pub mod formalization;
pub mod formats;
pub mod jobs;
pub mod lifecycle;
pub mod scheduler;
pub mod workspace;

pub use error::{Error, Result};
