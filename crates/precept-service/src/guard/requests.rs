//! The requests the guard reads, as typed as the guard needs them: each
//! body is checked against its type before it is forwarded (as it came, so
//! fields the guard does not read reach the chatbot unchanged), and the
//! OpenAPI description is generated from these types.

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

/// One turn of a conversation. `content` is a string or a list of parts
/// (`{"type": "text", "text": …}`), as both APIs allow.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Turn {
    /// `system`, `user` or `assistant` (OpenAI also has `tool`).
    pub role: String,
    #[schema(value_type = Object)]
    #[serde(default)]
    pub content: Value,
}

/// `POST /v1/chat/completions` (OpenAI's chat completions).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChatCompletionsRequest {
    /// Replaced by the guard's chatbot profile's model.
    #[serde(default)]
    pub model: Option<String>,
    pub messages: Vec<Turn>,
    /// Answer as server-sent events in OpenAI's chunk format.
    #[serde(default)]
    pub stream: bool,
}

/// `POST /v1/messages` (Anthropic's Messages API).
#[derive(Debug, Deserialize, ToSchema)]
pub struct MessagesRequest {
    /// Replaced by the guard's chatbot profile's model.
    #[serde(default)]
    pub model: Option<String>,
    /// The system prompt: a string or a list of text blocks.
    #[schema(value_type = Object)]
    #[serde(default)]
    pub system: Value,
    pub messages: Vec<Turn>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// Answer as server-sent events (`message_start` … `message_stop`).
    #[serde(default)]
    pub stream: bool,
}
