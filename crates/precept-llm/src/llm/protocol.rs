//! The two wire formats: request bodies and reply extraction. Pure
//! functions over JSON, so they are testable without a server.

use serde_json::{Value, json};

use super::config::{Profile, Protocol};
use super::request::{LlmError, LlmRequest, snippet};
use super::validate::validate_reply;

/// The Anthropic API version sent in `anthropic-version`.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The endpoint URL for `profile` (a trailing `/` or `/v1` on the base URL
/// is tolerated).
pub fn endpoint(profile: &Profile) -> String {
    let base = profile.base_url.trim_end_matches('/');
    let base = base.strip_suffix("/v1").unwrap_or(base);
    match profile.protocol {
        Protocol::OpenAi => format!("{base}/v1/chat/completions"),
        Protocol::Anthropic => format!("{base}/v1/messages"),
    }
}

/// The JSON body for `request` in `profile`'s protocol.
pub fn request_body(profile: &Profile, request: &LlmRequest) -> Value {
    match profile.protocol {
        Protocol::OpenAi => {
            let mut messages = Vec::new();
            if !request.system.is_empty() {
                messages.push(json!({"role": "system", "content": request.system}));
            }
            messages.push(json!({"role": "user", "content": request.prompt}));
            json!({
                "model": profile.model,
                "messages": messages,
                "temperature": request.temperature,
                "max_tokens": request.max_tokens,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {
                        "name": request.schema_name,
                        "schema": request.schema,
                        "strict": true,
                    }
                }
            })
        }
        Protocol::Anthropic => {
            let mut body = json!({
                "model": profile.model,
                "max_tokens": request.max_tokens,
                "temperature": request.temperature,
                "messages": [{"role": "user", "content": request.prompt}],
                "tools": [{
                    "name": request.schema_name,
                    "description": format!(
                        "Record the answer as structured data matching the '{}' schema.",
                        request.schema_name
                    ),
                    "input_schema": request.schema,
                }],
                "tool_choice": {"type": "tool", "name": request.schema_name},
            });
            if !request.system.is_empty() {
                body["system"] = Value::String(request.system.clone());
            }
            body
        }
    }
}

/// Extracts the structured answer from a successful HTTP body and
/// validates it against the request's schema.
pub fn parse_reply(protocol: Protocol, request: &LlmRequest, raw: &str) -> Result<Value, LlmError> {
    let invalid = |reason: String| LlmError::InvalidReply {
        reason,
        raw_snippet: snippet(raw),
    };
    let envelope: Value = serde_json::from_str(raw)
        .map_err(|e| invalid(format!("the response body is not JSON: {e}")))?;
    let answer = match protocol {
        Protocol::OpenAi => {
            let choice = envelope
                .pointer("/choices/0")
                .ok_or_else(|| invalid("no choices[0] in the response".into()))?;
            let message = choice
                .get("message")
                .ok_or_else(|| invalid("no choices[0].message in the response".into()))?;
            if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
                return Err(invalid(format!("the model refused: {refusal}")));
            }
            if choice.get("finish_reason").and_then(Value::as_str) == Some("length") {
                return Err(invalid(
                    "the reply was cut off at max_tokens (finish_reason: length)".into(),
                ));
            }
            match message.get("content") {
                Some(Value::String(text)) => parse_content(text)
                    .map_err(|e| invalid(format!("the message content is not JSON: {e}")))?,
                // Some servers hand back the object itself.
                Some(object @ Value::Object(_)) => object.clone(),
                _ => return Err(invalid("choices[0].message.content is missing".into())),
            }
        }
        Protocol::Anthropic => {
            if envelope.get("stop_reason").and_then(Value::as_str) == Some("max_tokens") {
                return Err(invalid(
                    "the reply was cut off at max_tokens (stop_reason: max_tokens)".into(),
                ));
            }
            let blocks = envelope
                .get("content")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("no content array in the response".into()))?;
            let block = blocks
                .iter()
                .find(|b| {
                    b.get("type").and_then(Value::as_str) == Some("tool_use")
                        && b.get("name").and_then(Value::as_str)
                            == Some(request.schema_name.as_str())
                })
                .ok_or_else(|| {
                    invalid(format!(
                        "no tool_use block for '{}' in the response",
                        request.schema_name
                    ))
                })?;
            block
                .get("input")
                .cloned()
                .ok_or_else(|| invalid("the tool_use block has no input".into()))?
        }
    };
    validate_reply(&answer, &request.schema)
        .map_err(|reason| invalid(format!("the reply does not fit the schema: {reason}")))?;
    Ok(answer)
}

/// Parses message content as JSON, tolerating a surrounding Markdown code
/// fence (some local servers add one despite the schema).
fn parse_content(text: &str) -> Result<Value, serde_json::Error> {
    let trimmed = text.trim();
    let unfenced = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.trim_end().strip_suffix("```"))
        .unwrap_or(trimmed);
    serde_json::from_str(unfenced.trim())
}
