//! The effects the update asks for, carried out off the UI thread: the
//! solver workers and file writes (`runtime`; the workers, their edits and
//! how lint and test runs are shared among them in `solvers`; the verify
//! panel's question split over two of them by the solver's own
//! `verify_on_two`), LLM and solver jobs in the background (`llm_jobs`), explanations on the shared solver
//! (`explain_jobs`), the coverage run with the full mutation score on a
//! pool of workers (`coverage_job`), chatbot probes (`probe_job`), whether an approved rule's edit kept
//! its meaning (`rewrite_check`), the semantic diff against the draft's base
//! version (`diff_job`), and the
//! workbench's own settings on disk (`config`).

pub mod config;
pub mod coverage_job;
pub mod diff_job;
pub mod explain_jobs;
pub mod llm_jobs;
pub mod probe_job;
pub mod rewrite_check;
pub mod runtime;
pub mod solvers;
