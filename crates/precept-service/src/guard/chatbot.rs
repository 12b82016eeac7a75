//! Forwarding a chat request to the chatbot profile of llm.toml, as it is
//! apart from the model name (the profile's), in the profile's protocol:
//! OpenAI's chat completions or Anthropic's Messages API.

use crate::api_error::ApiError;
use crate::error::Error;
use precept_engine::llm::config::{
    Profile, Protocol, probe_tcp, process_env, resolve_profile, user_config_dir,
};
use serde_json::Value;
use std::path::PathBuf;

/// The Messages API version the guard speaks to an Anthropic chatbot.
const ANTHROPIC_VERSION: &str = "2023-06-01";

pub struct Chatbot {
    profile: Profile,
    endpoint: String,
    http: reqwest::Client,
}

impl Chatbot {
    /// The chatbot of profile `name`, in its own protocol.
    pub fn for_profile(name: &str) -> Result<Chatbot, Error> {
        let config_dir = user_config_dir().unwrap_or_else(|| PathBuf::from("."));
        let resolved = resolve_profile(&config_dir, Some(name), &process_env, &probe_tcp).map_err(
            |source| Error::GuardProfile {
                profile: name.to_string(),
                source,
            },
        )?;
        Chatbot::new(resolved.profile).map_err(|source| Error::GuardClient {
            profile: name.to_string(),
            source,
        })
    }

    /// The chatbot of `profile`.
    pub fn new(profile: Profile) -> Result<Chatbot, reqwest::Error> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        // The profile's timeout bounds the wait for the reply to start; a
        // stream then runs as long as the chatbot keeps sending.
        let http = reqwest::Client::builder()
            .connect_timeout(profile.timeout)
            .read_timeout(profile.timeout)
            .build()?;
        let base = profile.base_url.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        let path = match profile.protocol {
            Protocol::Anthropic => "/v1/messages",
            _ => "/v1/chat/completions",
        };
        Ok(Chatbot {
            endpoint: format!("{base}{path}"),
            profile,
            http,
        })
    }

    pub fn protocol(&self) -> Protocol {
        self.profile.protocol
    }

    pub fn name(&self) -> &str {
        &self.profile.name
    }

    /// Sends `request` with the profile's model and `stream` set as asked;
    /// an unreachable chatbot or an error status is a 502.
    pub async fn send(&self, request: &Value, stream: bool) -> Result<reqwest::Response, ApiError> {
        let mut body = request.clone();
        if let Some(object) = body.as_object_mut() {
            object.insert("model".into(), Value::String(self.profile.model.clone()));
            object.insert("stream".into(), Value::Bool(stream));
        }
        let mut call = self.http.post(&self.endpoint).json(&body);
        let key = self
            .profile
            .api_key_env
            .as_deref()
            .and_then(|var| std::env::var(var).ok())
            .filter(|key| !key.trim().is_empty());
        call = match (self.profile.protocol, key) {
            (Protocol::Anthropic, key) => {
                let call = call.header("anthropic-version", ANTHROPIC_VERSION);
                match key {
                    Some(key) => call.header("x-api-key", key.trim()),
                    None => call,
                }
            }
            (_, Some(key)) => call.bearer_auth(key.trim()),
            (_, None) => call,
        };
        let reply = call.send().await.map_err(|e| {
            ApiError::bad_gateway(format!(
                "the chatbot ({}) did not answer: {}",
                self.profile.name,
                e.without_url()
            ))
        })?;
        let status = reply.status();
        if !status.is_success() {
            let text = reply.text().await.unwrap_or_default();
            return Err(ApiError::bad_gateway(format!(
                "the chatbot ({}) answered {status}: {}",
                self.profile.name,
                text.chars().take(300).collect::<String>()
            )));
        }
        Ok(reply)
    }

    /// Sends `request` without streaming and returns the reply's body.
    pub async fn complete(&self, request: &Value) -> Result<Value, ApiError> {
        let reply = self.send(request, false).await?;
        let text = reply.text().await.map_err(|e| {
            ApiError::bad_gateway(format!("the chatbot's reply could not be read: {e}"))
        })?;
        serde_json::from_str(&text)
            .map_err(|e| ApiError::bad_gateway(format!("the chatbot's reply is not JSON: {e}")))
    }
}
