//! What `precept serve` was asked to do.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The largest request body accepted (larger ones get 413).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The project directory (only ever read).
    pub dir: PathBuf,
    pub addr: SocketAddr,
    /// The bearer token every request but `/healthz` must carry.
    pub token: Option<String>,
    /// Solver workers, each with the model loaded once.
    pub workers: usize,
    /// Requests that may wait for a worker beyond those running; more get 429.
    pub queue: usize,
    /// Each request's solver deadline (None: the project's setting).
    pub timeout: Option<Duration>,
    /// How often the project's files are looked at for changes (None: never).
    pub watch_every: Option<Duration>,
    /// The LLM profile that translates answers (None: the default one).
    pub translator_profile: Option<String>,
    /// With `--guard`: the proxy in front of a chatbot.
    pub guard: Option<GuardOptions>,
}

#[derive(Debug, Clone)]
pub struct GuardOptions {
    /// The llm.toml profile of the chatbot requests are forwarded to.
    pub profile: String,
    /// Replace an INVALID or IMPOSSIBLE reply with `block_message`.
    pub block: bool,
    pub block_message: String,
    /// Revision rounds: the feedback goes back to the chatbot up to this
    /// many times, until a reply is VALID.
    pub revise: u32,
    /// Translations per check (as `check-answer --k`).
    pub k: usize,
    /// How a streamed request is answered.
    pub stream: StreamMode,
}

/// How the guard answers a request with `"stream": true`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StreamMode {
    /// Read the chatbot's whole reply, check it (revise, block), then
    /// stream the final reply; the verdict is known before the first byte.
    #[default]
    Hold,
    /// Pass the chatbot's chunks on as they arrive; the verdict follows in
    /// one last chunk. Nothing can be blocked or revised.
    Pass,
}

/// The default message that replaces a blocked reply.
pub const DEFAULT_BLOCK_MESSAGE: &str = "I can't give that answer: it does not agree with the \
                                         policy. Please check the policy or ask someone who can.";
