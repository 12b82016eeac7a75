//! The engine's crates through their library API, and the shape of the repository (architecture, generated docs).
//! One test binary for all of them, so a change relinks it once.

#[path = "../support/rust_uses.rs"]
mod rust_uses;
#[path = "../support/mod.rs"]
mod support;
#[path = "../../benches/support/synthetic.rs"]
mod synthetic;
#[path = "../support/variable_pairs.rs"]
mod variable_pairs;

mod answer_verifier;
mod architecture;
mod behaviour_compare;
mod clustering;
mod conditionalqa_script;
mod coverage_equivalence;
mod dmn_hit_policies;
mod docs;
mod embedders;
mod english;
mod english_wording;
mod explain_core;
mod explain_relevance;
mod findings;
mod generation_pool;
mod large_cones;
mod lint_meaning;
mod lint_solver;
mod lint_syntactic;
mod project_files;
mod repair_feedback;
mod repair_loop;
mod report_figures;
mod roundtrip;
mod scheduler_jobs;
mod spans_corpus;
mod split_verify;
