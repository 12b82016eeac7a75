//! From document to model: spans of the source document (and, later, the
//! LLM-driven formalization of each span).

pub mod cluster;
pub mod embed;
pub mod spans;

pub use spans::{DocSpan, SpanKind, split_spans};
