//! The LLM options shared by the commands that talk to a language model,
//! and the client they build from them.

use super::Failure;
use crate::core::llm::config::{self, ProfileSource};
use crate::core::llm::{ClientOptions, LlmClient, Mode, resolve_profile};
use std::path::PathBuf;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct LlmArgs {
    /// The profile of llm.toml to use (default: its `default`, else the first)
    #[arg(long)]
    pub profile: Option<String>,
    /// Answer only from replies recorded in the project's cache; never use the network
    #[arg(long, conflicts_with = "record")]
    pub replay: bool,
    /// Ask the server even for cached requests, and record the replies
    #[arg(long)]
    pub record: bool,
}

impl LlmArgs {
    pub fn mode(&self) -> Mode {
        if self.replay {
            Mode::Replay
        } else if self.record {
            Mode::Record
        } else {
            Mode::Live
        }
    }
}

/// A client for the chosen profile, caching in `cache_dir`. Replay needs the
/// profile the replies were recorded with (the cache key includes its
/// server and model) but never its key or its server.
pub fn llm_client(args: &LlmArgs, cache_dir: PathBuf) -> Result<LlmClient, Failure> {
    let config_dir = config::user_config_dir().unwrap_or_else(|| PathBuf::from("."));
    let resolved = match resolve_profile(
        &config_dir,
        args.profile.as_deref(),
        &config::process_env,
        &config::probe_tcp,
    ) {
        Ok(resolved) => resolved,
        Err(error) => return Err(Failure::Input(error.to_string())),
    };
    if resolved.source == ProfileSource::DetectedOllama {
        eprintln!(
            "precept: no LLM profile is configured; using the local Ollama at {} with model {}",
            resolved.profile.base_url, resolved.profile.model
        );
    }
    let options = ClientOptions {
        mode: args.mode(),
        cache_dir: Some(cache_dir),
        ..ClientOptions::default()
    };
    LlmClient::new(resolved.profile, options).map_err(|e| Failure::Input(e.to_string()))
}
