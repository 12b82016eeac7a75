//! The effects the update asks for, carried out off the UI thread: an
//! adapter from `Effect` to the engine's `Scheduler` (lint, test runs,
//! questions; `runtime`) and file writes, plus the jobs that run beside it:
//! LLM work (`llm_jobs`), explanations on the main worker (`explain_jobs`),
//! coverage with the full mutation score (`coverage_job`), chatbot probes
//! (`probe_job`), whether an approved rule's edit kept its meaning
//! (`rewrite_check`), the semantic diff against the draft's base version
//! (`diff_job`), and the workbench's own settings on disk (`config`).

pub mod config;
pub mod explain_jobs;
pub mod llm_jobs;
pub mod probe_job;
pub mod runtime;
