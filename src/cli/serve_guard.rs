//! The guard proxy's options of `precept serve` (`--guard PROFILE
//! [--block] [--revise N]`).

use super::common::Failure;
use precept_service::GuardOptions;
use precept_service::options::{DEFAULT_BLOCK_MESSAGE, StreamMode};

#[derive(Debug, clap::Args)]
pub struct GuardArgs {
    /// Be a guard proxy in front of this llm.toml profile, in its protocol: POST /v1/chat/completions (openai) or POST /v1/messages (anthropic); each reply is checked
    #[arg(long)]
    pub guard: Option<String>,
    /// With --guard: replace an INVALID or IMPOSSIBLE reply with --block-message
    #[arg(long, requires = "guard")]
    pub block: bool,
    /// With --block: the message that replaces a blocked reply
    #[arg(long, requires = "block")]
    pub block_message: Option<String>,
    /// With --guard: send the feedback back to the chatbot up to N times until the reply is VALID
    #[arg(long, default_value_t = 0, requires = "guard")]
    pub revise: u32,
    /// With --guard: translations per check (as check-answer --k)
    #[arg(long = "guard-k", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub guard_k: u32,
    /// With --guard, for requests with "stream": true: hold (check the whole reply, apply --block and --revise, then stream it; the verdict is in the header and the last content chunk) or pass (pass chunks on as they arrive, the verdict in one last chunk; --block and --revise cannot apply)
    #[arg(long, value_enum, default_value_t = Streaming::Hold, requires = "guard")]
    pub stream: Streaming,
}

/// `--stream`: how a streamed request is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Streaming {
    Hold,
    Pass,
}

impl GuardArgs {
    pub fn options(&self) -> Result<Option<GuardOptions>, Failure> {
        let Some(profile) = &self.guard else {
            return Ok(None);
        };
        Ok(Some(GuardOptions {
            profile: profile.clone(),
            block: self.block,
            block_message: self
                .block_message
                .clone()
                .unwrap_or_else(|| DEFAULT_BLOCK_MESSAGE.to_string()),
            revise: self.revise,
            k: self.guard_k as usize,
            stream: match self.stream {
                Streaming::Hold => StreamMode::Hold,
                Streaming::Pass => StreamMode::Pass,
            },
        }))
    }
}
