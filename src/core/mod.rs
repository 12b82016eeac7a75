//! Precept's core: plain data and plain functions. Nothing here knows about
//! the terminal (a test enforces it).

pub mod answer;
pub mod compose;
pub mod define;
pub mod document;
pub mod explain;
pub mod export;
pub mod formalize;
pub mod formats;
pub mod lifecycle;
pub mod lint;
pub mod llm;
pub mod model;
pub mod probe;
pub mod repair;
pub mod smt;
pub mod solve;
pub mod test_runner;
pub mod testgen;
