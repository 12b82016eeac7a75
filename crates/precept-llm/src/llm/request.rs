//! What goes to an LLM and what comes back: a structured-output request,
//! a validated reply, and every way a request can fail.

use std::time::Duration;

use serde_json::Value;

/// One structured-output request.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRequest {
    pub system: String,
    pub prompt: String,
    /// The schema's name (the OpenAI `json_schema.name`, the Anthropic tool
    /// name): letters, digits, `_` and `-`.
    pub schema_name: String,
    /// A JSON Schema whose top level is an object.
    pub schema: Value,
    pub temperature: f32,
    pub max_tokens: u32,
}

/// A validated reply.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmReply {
    /// The structured answer; it fits the request's schema.
    pub json: Value,
    /// The raw response body it was taken from.
    pub raw: String,
    pub from_cache: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("LLM not configured: {how_to}")]
    NotConfigured { how_to: String },
    #[error("{path}: {message}")]
    Config { path: String, message: String },
    #[error("the LLM server did not answer within {after:?}")]
    Timeout { after: Duration },
    #[error("the LLM server answered HTTP {status}: {body_snippet}")]
    Http { status: u16, body_snippet: String },
    #[error("cannot reach the LLM server: {0}")]
    Connection(String),
    #[error("the LLM reply is unusable: {reason} (reply: {raw_snippet})")]
    InvalidReply { reason: String, raw_snippet: String },
    #[error("the LLM request was cancelled")]
    Cancelled,
    #[error("no recorded reply for this request (key {key} in {dir}); run once in record mode")]
    NotRecorded { key: String, dir: String },
    #[error("LLM cache {path}: {message}")]
    Cache { path: String, message: String },
    #[error("{0}")]
    Internal(String),
}

/// At most 400 characters of `text`, for error messages.
pub fn snippet(text: &str) -> String {
    const LIMIT: usize = 400;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}…")
    }
}
