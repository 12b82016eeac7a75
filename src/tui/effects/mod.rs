//! The effects the update asks for, carried out off the UI thread: the
//! solver worker and file writes (`runtime`), LLM and solver jobs in the
//! background (`llm_jobs`), explanations on the shared solver
//! (`explain_jobs`), the coverage run with the full mutation score on a
//! pool of workers (`coverage_job`), chatbot probes (`probe_job`), the
//! semantic diff against the draft's base version (`diff_job`), and the
//! workbench's own settings on disk (`config`).

pub mod config;
pub mod coverage_job;
pub mod diff_job;
pub mod explain_jobs;
pub mod llm_jobs;
pub mod probe_job;
pub mod runtime;
