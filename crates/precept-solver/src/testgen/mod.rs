//! Symbolic test generation, coverage and mutation.
//!
//! - `cases`: rules split into cases, atoms, thresholds and boundary points
//! - `candidates`: the candidate kinds and how each is derived
//! - `chains`: transitive chains and composites (multi-step candidates)
//! - `budget`: asking the solver within a budget, deduplication
//! - `ranking`: scores and the greedy pick
//! - `explain`: a generated test's name and explanation, from its proved finding
//! - `generate`: the whole generation, and proposed tests' review
//! - `coverage`, `mutation`: how well a suite covers the rules
//!   (`coverage_checks`: one test's checks on a worker; `coverage_models`:
//!   satisfiability questions about one premise, from kept models first)
//! - `report_text`: how their figures are written (one decimal everywhere)
//! - `mutation_pool`: every mutant in schemata over a solver pool;
//!   `equivalence_cache`: equivalent mutants by content hash in `.cache/`

mod budget;
mod candidates;
mod cases;
mod chains;
pub mod coverage;
mod coverage_checks;
mod coverage_models;
pub mod equivalence_cache;
mod explain;
pub mod generate;
pub mod mutation;
pub mod mutation_pool;
mod ranking;
pub mod report_text;
mod seed;

#[cfg(test)]
mod tests;
