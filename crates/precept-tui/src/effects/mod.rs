//! The effects the update asks for, carried out off the UI thread: an
//! adapter from `Effect` to the engine's `Scheduler` (lint, test runs,
//! questions; `runtime`) and file writes, the engine's LLM jobs as
//! messages (`llm_jobs`: formalize, repair, consolidation, answer checks
//! and tests, chatbot probes), explanations on the main worker
//! (`explain_jobs`), and the workbench's own settings on disk (`config`).

pub mod config;
pub mod explain_jobs;
pub mod llm_jobs;
pub mod runtime;
