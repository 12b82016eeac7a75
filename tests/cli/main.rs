//! The command line, run as a user runs it: the `precept` binary on projects, documents and scripted LLM servers.
//! One test binary for all of them, so a change relinks it once.

#[path = "../support/probe_bot.rs"]
mod probe_bot;
#[path = "../support/mod.rs"]
mod support;
// Where probe_bot.rs (shared with the probe bench) finds the scripted server.
use support::llm_server;
#[path = "../../benches/support/synthetic.rs"]
mod synthetic;
// The benches' dense model, drawing from the scale model's generator.
#[path = "../../benches/support/dense_model.rs"]
mod dense_model;
#[path = "../../benches/support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;

mod arc_policy;
mod audit_bundle;
mod check_answers;
mod cli;
mod consolidate;
mod corpus;
mod coverage;
mod definitions;
mod dmn_import;
mod eval;
mod explain;
mod export;
mod formalize;
mod lab_eval;
mod lifecycle;
mod lint_evidence;
mod lint_output;
mod mutation_pool;
mod probe;
mod report;
mod report_chromium;
mod scenario_tables;
mod scenario_values;
mod shared_vocabulary;
mod signoff;
mod solver_pool_runs;
mod testgen;
mod verdicts;
