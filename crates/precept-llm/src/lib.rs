//! Everything that asks an LLM: the chat clients, formalization, composing
//! and consolidating a model, the answer verifier, repair from feedback and
//! probing a chatbot. Each answer an LLM gives is checked by the solver
//! crate before it reaches a model or a verdict.

pub use precept_solver::{document, explain, lint, model, smt, solve, test_runner, testgen};

pub mod answer;
pub mod compose;
pub mod error;
pub mod formalize;
pub mod llm;
pub mod probe;
pub mod repair;

pub use error::{Error, Result};
