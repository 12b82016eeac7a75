//! From document to model: spans of the source document, the LLM-driven
//! formalization of each span into a policy unit (with its refinement loop),
//! and the composition of the units into one model (embed, cluster, unify,
//! rename, dedupe) with provenance.

pub mod cluster;
pub mod cluster_edit;
pub mod compose;
pub mod consolidate;
pub mod consolidate_check;
pub mod contrast;
pub mod document_run;
pub mod embed;
#[cfg(feature = "minilm")]
pub mod embed_minilm;
pub mod embed_remote;
pub mod pipeline;
pub mod record;
pub mod repair;
pub mod repair_preview;
pub mod span_context;
pub mod span_job;
pub mod spans;
pub mod unit;
pub mod vocabulary;

pub use spans::{DocSpan, SpanKind, split_spans};
