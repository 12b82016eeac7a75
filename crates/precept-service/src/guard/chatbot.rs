//! Forwarding a chat request to the chatbot profile of llm.toml, as it is
//! apart from the model name (the profile's).

use crate::api_error::ApiError;
use crate::error::Error;
use precept_engine::llm::config::{
    Profile, Protocol, probe_tcp, process_env, resolve_profile, user_config_dir,
};
use serde_json::Value;
use std::path::PathBuf;

pub struct Chatbot {
    profile: Profile,
    endpoint: String,
    http: reqwest::Client,
}

impl Chatbot {
    /// The chatbot of profile `name`: it must speak the OpenAI protocol.
    pub fn for_profile(name: &str) -> Result<Chatbot, Error> {
        let config_dir = user_config_dir().unwrap_or_else(|| PathBuf::from("."));
        let resolved = resolve_profile(&config_dir, Some(name), &process_env, &probe_tcp).map_err(
            |source| Error::GuardProfile {
                profile: name.to_string(),
                source,
            },
        )?;
        let profile = resolved.profile;
        if profile.protocol != Protocol::OpenAi {
            return Err(Error::GuardProtocol {
                profile: name.to_string(),
                protocol: profile.protocol.as_str().to_string(),
            });
        }
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(profile.timeout)
            .build()
            .map_err(|source| Error::GuardClient {
                profile: name.to_string(),
                source,
            })?;
        let base = profile.base_url.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        Ok(Chatbot {
            endpoint: format!("{base}/v1/chat/completions"),
            profile,
            http,
        })
    }

    /// Sends `request` (a chat-completions body) and returns the reply's
    /// body; an error status or an unreadable body is a 502.
    pub async fn complete(&self, request: &Value) -> Result<Value, ApiError> {
        let mut body = request.clone();
        if let Some(object) = body.as_object_mut() {
            object.insert("model".into(), Value::String(self.profile.model.clone()));
        }
        let mut call = self.http.post(&self.endpoint).json(&body);
        if let Some(var) = &self.profile.api_key_env
            && let Ok(key) = std::env::var(var)
            && !key.trim().is_empty()
        {
            call = call.bearer_auth(key.trim());
        }
        let reply = call.send().await.map_err(|e| {
            ApiError::bad_gateway(format!(
                "the chatbot ({}) did not answer: {}",
                self.profile.name,
                e.without_url()
            ))
        })?;
        let status = reply.status();
        let text = reply.text().await.map_err(|e| {
            ApiError::bad_gateway(format!("the chatbot's reply could not be read: {e}"))
        })?;
        if !status.is_success() {
            return Err(ApiError::bad_gateway(format!(
                "the chatbot ({}) answered {status}: {}",
                self.profile.name,
                text.chars().take(300).collect::<String>()
            )));
        }
        serde_json::from_str(&text)
            .map_err(|e| ApiError::bad_gateway(format!("the chatbot's reply is not JSON: {e}")))
    }
}

/// The text of the first choice of a chat-completions reply.
pub fn reply_text(reply: &Value) -> Option<&str> {
    reply
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
}

/// Replaces the text of the first choice.
pub fn set_reply_text(reply: &mut Value, text: &str) {
    if let Some(content) = reply.pointer_mut("/choices/0/message/content") {
        *content = Value::String(text.to_string());
    }
}

/// The text of the last user message of a chat request.
pub fn last_user_message(request: &Value) -> Option<String> {
    let messages = request.get("messages")?.as_array()?;
    let last = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))?;
    match last.get("content")? {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}
