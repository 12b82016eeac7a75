//! The LLM provider layer against an in-process scripted HTTP server on
//! 127.0.0.1: both protocols over real HTTP, retries, timeouts, dropped
//! connections, validation, the cache and its modes, key handling,
//! configuration and the concurrency limit. Never touches the internet.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use precept::llm::config::{self, OLLAMA_URL};
use precept::llm::{
    ClientOptions, LlmClient, LlmError, LlmRequest, Mode, Profile, ProfileSource, Protocol,
    RetryPolicy, complete_blocking, mask_secret, resolve_profile,
};
use serde_json::{Value, json};

use crate::support;

use support::llm_server::{
    ANTHROPIC_PATH, Action, OPENAI_PATH, Server, anthropic_tool_reply, ok, openai_reply,
};

// ---------------------------------------------------------------------------
// Helpers.

const SECRET: &str = "sk-test-SECRET-0123456789abcd";

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "answer": {"type": "string"},
            "score": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["answer", "score"],
        "additionalProperties": false,
    })
}

fn request(prompt: &str) -> LlmRequest {
    LlmRequest {
        system: "You extract facts.".into(),
        prompt: prompt.into(),
        schema_name: "facts".into(),
        schema: schema(),
        temperature: 0.0,
        max_tokens: 256,
    }
}

fn anthropic_reply(input: Value) -> Action {
    anthropic_tool_reply("facts", input)
}

fn profile(server: &Server, protocol: Protocol) -> Profile {
    let mut profile = Profile::new("test", protocol, &server.url, "test-model");
    profile.api_key_env = Some("PRECEPT_TEST_KEY".into());
    profile.timeout = Duration::from_secs(5);
    profile
}

fn options(mode: Mode, cache: Option<&Path>) -> ClientOptions {
    ClientOptions {
        mode,
        cache_dir: cache.map(Path::to_path_buf),
        retry: RetryPolicy {
            max_retries: 4,
            base_delay: Duration::from_millis(20),
            max_delay: Duration::from_secs(2),
        },
        env: Arc::new(|name: &str| (name == "PRECEPT_TEST_KEY").then(|| SECRET.to_string())),
        use_env_proxy: false,
    }
}

fn client(server: &Server, protocol: Protocol, mode: Mode, cache: Option<&Path>) -> LlmClient {
    LlmClient::new(profile(server, protocol), options(mode, cache)).expect("client")
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read cache dir") {
        let path = entry.expect("entry").path();
        texts.push(std::fs::read_to_string(path).expect("read cache file"));
    }
    texts
}

mod cache_and_config;
mod protocols;
mod reliability;
