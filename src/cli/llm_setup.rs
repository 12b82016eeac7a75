//! The LLM options shared by the commands that talk to a language model,
//! and the client they build from them.

use super::common::Failure;
use precept_engine::llm::config::ProfileSource;
use precept_engine::llm::{LlmClient, Mode, configured_client};
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
    let (client, source) = configured_client(args.profile.as_deref(), args.mode(), cache_dir)
        .map_err(|e| Failure::Input(e.to_string()))?;
    if source == ProfileSource::DetectedOllama {
        eprintln!(
            "precept: no LLM profile is configured; using the local Ollama at {} with model {}",
            client.profile().base_url,
            client.profile().model
        );
    }
    Ok(client)
}
