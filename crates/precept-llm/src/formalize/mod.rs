//! What one span of a document becomes: the policy unit the LLM drafts for
//! it (types, variables, rules, each checked), the per-span job with its
//! repair rounds, the shared vocabulary a span is asked against, and running
//! many span jobs concurrently. Composing the units into one model is
//! `compose/`.

pub mod span_job;
pub mod span_runs;
pub mod span_task;
pub mod unit;
pub mod vocabulary;
