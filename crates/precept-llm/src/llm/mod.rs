//! The LLM provider layer: hand-written adapters over reqwest for
//! OpenAI-compatible servers (`/v1/chat/completions` with a JSON schema)
//! and Anthropic (`/v1/messages` with a forced tool), with validation of
//! every reply, retries, a concurrency limit, cancellation and an on-disk
//! cache with record/replay modes.
//!
//! Keys live only in the environment: a [`Profile`] names the variable,
//! and the client reads it for each request.

pub mod cache;
pub mod cancel;
pub mod chat;
pub mod config;
pub mod embedding_reply;
pub mod embeddings;
pub mod prompts;
pub mod protocol;
pub mod request;
pub mod retry_after;
pub mod runtime;
pub mod validate;

use std::fmt;
use std::hash::BuildHasher;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

pub use cancel::Cancel;
pub use config::{Profile, ProfileSource, Protocol, Resolved, resolve_profile};
pub use request::{LlmError, LlmReply, LlmRequest, snippet};

/// How the cache is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Answer from the cache when possible, else ask the server and cache
    /// the validated reply.
    #[default]
    Live,
    /// Always ask the server and (over)write the cache.
    Record,
    /// Answer only from the cache; never touch the network.
    Replay,
}

/// Retry policy for 429, 5xx and connection errors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// First backoff; doubled on each retry, plus up to 50% jitter.
    pub base_delay: Duration,
    /// No single wait (backoff or Retry-After) is longer than this.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

/// Reads an environment variable (injectable for tests).
pub type EnvSource = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Options of an [`LlmClient`] besides its profile.
#[derive(Clone)]
pub struct ClientOptions {
    pub mode: Mode,
    /// The project's `.cache/llm/`; `None` disables caching (and makes
    /// Replay fail).
    pub cache_dir: Option<PathBuf>,
    pub retry: RetryPolicy,
    /// Where keys are read from at request time.
    pub env: EnvSource,
    /// Honour HTTP(S)_PROXY from the environment.
    pub use_env_proxy: bool,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            mode: Mode::Live,
            cache_dir: None,
            retry: RetryPolicy::default(),
            env: Arc::new(config::process_env),
            use_env_proxy: true,
        }
    }
}

impl fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientOptions")
            .field("mode", &self.mode)
            .field("cache_dir", &self.cache_dir)
            .field("retry", &self.retry)
            .field("use_env_proxy", &self.use_env_proxy)
            .finish_non_exhaustive()
    }
}

/// Masks a secret for display: `sk-…abcd` (first 3 and last 4 characters
/// kept for long secrets, nothing kept for short ones).
pub fn mask_secret(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 12 {
        return "…".to_string();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

/// A client for one profile.
pub struct LlmClient {
    profile: Profile,
    options: ClientOptions,
    http: reqwest::Client,
    permits: Arc<Semaphore>,
    cancel: Cancel,
    /// Created on first use by [`complete_blocking`].
    runtime: OnceLock<tokio::runtime::Runtime>,
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.api_key().map(|k| mask_secret(&k));
        f.debug_struct("LlmClient")
            .field("profile", &self.profile)
            .field("api_key", &key)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// The outcome of one HTTP attempt, before retry decisions.
pub(crate) enum Attempt {
    Done(String),
    Retry {
        error: LlmError,
        wait: Option<Duration>,
    },
}

impl LlmClient {
    pub fn new(profile: Profile, options: ClientOptions) -> Result<LlmClient, LlmError> {
        let http = http_client(&profile, options.use_env_proxy)?;
        let permits = Arc::new(Semaphore::new(profile.concurrency.max(1)));
        Ok(LlmClient {
            profile,
            options,
            http,
            permits,
            cancel: Cancel::new(),
            runtime: OnceLock::new(),
        })
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    pub fn mode(&self) -> Mode {
        self.options.mode
    }

    /// A handle that cancels this client's requests.
    pub fn cancel_token(&self) -> Cancel {
        self.cancel.clone()
    }

    /// This client, its requests stopped by `cancel` (a job's one cancel).
    pub fn with_cancel(mut self, cancel: Cancel) -> LlmClient {
        self.cancel = cancel;
        self
    }

    /// The key, read from the environment now.
    fn api_key(&self) -> Option<String> {
        let name = self.profile.api_key_env.as_deref()?;
        (self.options.env)(name).filter(|k| !k.trim().is_empty())
    }

    /// Answers `request`, from the cache or the server.
    pub async fn complete(&self, request: &LlmRequest) -> Result<LlmReply, LlmError> {
        if self.cancel.is_cancelled() {
            return Err(LlmError::Cancelled);
        }
        let key = cache::cache_key(&self.profile, request);
        let cache_dir = self.options.cache_dir.as_deref();
        let cached = match (self.options.mode, cache_dir) {
            (Mode::Record, _) | (_, None) => None,
            (_, Some(dir)) => cache::load(dir, &key)?,
        };
        if let Some(entry) = &cached
            && let Some(reason) = &entry.rejected
            && self.options.mode == Mode::Replay
        {
            return Err(LlmError::InvalidReply {
                reason: reason.clone(),
                raw_snippet: snippet(&entry.raw),
            });
        }
        // A recorded rejection is asked again when live.
        if let Some(entry) = cached.filter(|e| e.rejected.is_none()) {
            // Re-check: a hand-edited cache file is data like any other.
            validate::validate_reply(&entry.json, &request.schema).map_err(|reason| {
                LlmError::InvalidReply {
                    reason: format!("cached reply does not fit the schema: {reason}"),
                    raw_snippet: snippet(&entry.raw),
                }
            })?;
            return Ok(LlmReply {
                json: entry.json,
                raw: entry.raw,
                from_cache: true,
            });
        }
        if self.options.mode == Mode::Replay {
            return Err(LlmError::NotRecorded {
                key,
                dir: cache_dir
                    .map(|d| d.display().to_string())
                    .unwrap_or_else(|| "(no cache directory)".into()),
            });
        }
        let mut cancelled = self.cancel.subscribe();
        let body = protocol::request_body(&self.profile, request);
        let raw = tokio::select! {
            result = self.fetch(&body) => result?,
            _ = cancelled.wait_for(|c| *c) => return Err(LlmError::Cancelled),
        };
        let parsed = protocol::parse_reply(self.profile.protocol, request, &raw);
        let rejected = match &parsed {
            Err(LlmError::InvalidReply { reason, .. }) => Some(reason.clone()),
            _ => None,
        };
        if let Some(dir) = cache_dir
            && (parsed.is_ok() || rejected.is_some())
        {
            cache::store(
                dir,
                &cache::CacheEntry {
                    key,
                    protocol: self.profile.protocol.as_str().into(),
                    base_url: self.profile.base_url.clone(),
                    model: self.profile.model.clone(),
                    schema_name: request.schema_name.clone(),
                    json: parsed.as_ref().cloned().unwrap_or(Value::Null),
                    raw: raw.clone(),
                    rejected,
                },
            )?;
        }
        let json = parsed?;
        Ok(LlmReply {
            json,
            raw,
            from_cache: false,
        })
    }

    /// The chatbot's free-text reply to `conversation`, from the cache or
    /// the server (a conversation is cached whole, so a rerun resumes).
    pub async fn chat(&self, conversation: &chat::Conversation) -> Result<LlmReply, LlmError> {
        if self.cancel.is_cancelled() {
            return Err(LlmError::Cancelled);
        }
        let key = chat::chat_key(&self.profile, conversation);
        let cache_dir = self.options.cache_dir.as_deref();
        if let (Mode::Live | Mode::Replay, Some(dir)) = (self.options.mode, cache_dir)
            && let Some(entry) = cache::load(dir, &key)?
            && let Value::String(text) = &entry.json
        {
            return Ok(LlmReply {
                json: Value::String(text.clone()),
                raw: entry.raw,
                from_cache: true,
            });
        }
        if self.options.mode == Mode::Replay {
            return Err(LlmError::NotRecorded {
                key,
                dir: cache_dir.map_or_else(
                    || "(no cache directory)".into(),
                    |d| d.display().to_string(),
                ),
            });
        }
        let mut cancelled = self.cancel.subscribe();
        let body = chat::chat_body(&self.profile, conversation);
        let raw = tokio::select! {
            result = self.fetch(&body) => result?,
            _ = cancelled.wait_for(|c| *c) => return Err(LlmError::Cancelled),
        };
        let text = chat::chat_text(self.profile.protocol, &raw)?;
        if let Some(dir) = cache_dir {
            cache::store(
                dir,
                &cache::CacheEntry {
                    key,
                    protocol: self.profile.protocol.as_str().into(),
                    base_url: self.profile.base_url.clone(),
                    model: self.profile.model.clone(),
                    schema_name: chat::CHAT_ENTRY.into(),
                    json: Value::String(text.clone()),
                    raw: raw.clone(),
                    rejected: None,
                },
            )?;
        }
        Ok(LlmReply {
            json: Value::String(text),
            raw,
            from_cache: false,
        })
    }

    /// The successful response body, after retries.
    async fn fetch(&self, body: &Value) -> Result<String, LlmError> {
        let key = self.api_key();
        if self.profile.protocol == Protocol::Anthropic && key.is_none() {
            let var = self
                .profile
                .api_key_env
                .clone()
                .unwrap_or_else(|| config::ENV_ANTHROPIC_KEY.into());
            return Err(LlmError::NotConfigured {
                how_to: format!(
                    "profile '{}' speaks the Anthropic protocol and needs a key: set the \
                     environment variable {var} (or name another with api_key_env in llm.toml \
                     or {})",
                    self.profile.name,
                    config::ENV_API_KEY_ENV
                ),
            });
        }
        let url = protocol::endpoint(&self.profile);
        let retry = self.options.retry;
        let mut attempt = 0u32;
        loop {
            let outcome = {
                let _permit = self
                    .permits
                    .acquire()
                    .await
                    .map_err(|_| LlmError::Cancelled)?;
                self.attempt(&url, body, key.as_deref()).await?
            };
            match outcome {
                Attempt::Done(raw) => return Ok(raw),
                Attempt::Retry { error, wait } => {
                    if attempt >= retry.max_retries {
                        return Err(error);
                    }
                    tokio::time::sleep(retry_wait(&retry, attempt, wait)).await;
                    attempt += 1;
                }
            }
        }
    }

    /// One HTTP exchange; errors that are worth retrying come back as
    /// `Attempt::Retry`, the others as `Err`.
    async fn attempt(
        &self,
        url: &str,
        body: &Value,
        key: Option<&str>,
    ) -> Result<Attempt, LlmError> {
        let mut builder = self.http.post(url).json(body);
        builder = match (self.profile.protocol, key) {
            (Protocol::OpenAi, Some(key)) => builder.bearer_auth(key),
            (Protocol::OpenAi, None) => builder,
            (Protocol::Anthropic, key) => builder
                .header("x-api-key", key.unwrap_or_default())
                .header("anthropic-version", protocol::ANTHROPIC_VERSION),
        };
        exchange(builder, self.profile.timeout).await
    }
}

/// The HTTP client for `profile`: reqwest on rustls with the ring provider
/// (installed once per process), the profile's connect timeout, and the
/// environment's proxy settings when `use_env_proxy`.
pub(crate) fn http_client(
    profile: &Profile,
    use_env_proxy: bool,
) -> Result<reqwest::Client, LlmError> {
    // reqwest is built without a default crypto provider (no aws-lc);
    // install ring once per process. An error means one is already set.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::Client::builder().connect_timeout(profile.timeout);
    if !use_env_proxy {
        builder = builder.no_proxy();
    }
    builder
        .build()
        .map_err(|e| LlmError::Internal(format!("cannot build the HTTP client: {e}")))
}

/// How long to wait before retry number `attempt + 1`: the server's
/// Retry-After when it gave one, else exponential backoff with jitter;
/// never longer than the policy's maximum.
pub(crate) fn retry_wait(
    retry: &RetryPolicy,
    attempt: u32,
    server_wait: Option<Duration>,
) -> Duration {
    let backoff = retry.base_delay.saturating_mul(1 << attempt.min(16));
    let jitter = jitter(backoff / 2);
    server_wait.unwrap_or(backoff + jitter).min(retry.max_delay)
}

/// Sends one prepared request within `timeout`. 429, 5xx and connection
/// errors come back as `Attempt::Retry`; other failures as `Err`.
pub(crate) async fn exchange(
    builder: reqwest::RequestBuilder,
    timeout: Duration,
) -> Result<Attempt, LlmError> {
    let exchange = async {
        let response = builder.send().await?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after::retry_after(v, std::time::SystemTime::now()));
        let text = response.text().await?;
        Ok::<_, reqwest::Error>((status, retry_after, text))
    };
    let (status, retry_after, text) = match tokio::time::timeout(timeout, exchange).await {
        Err(_) => return Err(LlmError::Timeout { after: timeout }),
        Ok(Err(e)) => {
            if e.is_timeout() {
                return Err(LlmError::Timeout { after: timeout });
            }
            return Ok(Attempt::Retry {
                error: LlmError::Connection(describe(&e)),
                wait: None,
            });
        }
        Ok(Ok(parts)) => parts,
    };
    if (200..300).contains(&status) {
        return Ok(Attempt::Done(text));
    }
    let error = LlmError::Http {
        status,
        body_snippet: snippet(&text),
    };
    if status == 429 || (500..600).contains(&status) {
        Ok(Attempt::Retry {
            error,
            wait: retry_after,
        })
    } else {
        Err(error)
    }
}

/// A reqwest error with its causes, without the URL's query (none here)
/// and never with headers.
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// A random duration in `[0, max]` (no RNG crate: the std hasher's random
/// keys are enough for jitter).
fn jitter(max: Duration) -> Duration {
    let nanos = max.as_nanos() as u64;
    if nanos == 0 {
        return Duration::ZERO;
    }
    let random = std::collections::hash_map::RandomState::new().hash_one(std::time::Instant::now());
    Duration::from_nanos(random % (nanos + 1))
}

/// Answers `request` from synchronous code, on a runtime owned by the
/// client. Must not be called from inside an async runtime (use
/// [`LlmClient::complete`] there).
pub fn complete_blocking(client: &LlmClient, request: &LlmRequest) -> Result<LlmReply, LlmError> {
    block_on_client(client, client.complete(request))
}

/// [`LlmClient::chat`] from synchronous code, as [`complete_blocking`].
pub fn chat_blocking(
    client: &LlmClient,
    conversation: &chat::Conversation,
) -> Result<LlmReply, LlmError> {
    block_on_client(client, client.chat(conversation))
}

/// Runs `work` on the client's own runtime (started on first use); several
/// threads may wait on it at once.
fn block_on_client<T>(
    client: &LlmClient,
    work: impl std::future::Future<Output = Result<T, LlmError>>,
) -> Result<T, LlmError> {
    if runtime::inside_runtime() {
        return Err(LlmError::Internal(
            "a blocking LLM call was made inside an async runtime; use the async method".into(),
        ));
    }
    let runtime = match client.runtime.get() {
        Some(runtime) => runtime,
        None => {
            let built = runtime::blocking_runtime()
                .map_err(|e| LlmError::Internal(format!("cannot start the LLM runtime: {e}")))?;
            // Another thread may have won the race; either runtime will do.
            let _ = client.runtime.set(built);
            client
                .runtime
                .get()
                .ok_or_else(|| LlmError::Internal("the LLM runtime vanished".into()))?
        }
    };
    runtime.block_on(work)
}

/// A client for the user's configured profile (`llm.toml` in the user's
/// config folder, the environment, or a local Ollama that answers), caching
/// in `cache_dir`. Says where the profile came from.
pub fn configured_client(
    profile: Option<&str>,
    mode: Mode,
    cache_dir: PathBuf,
) -> Result<(LlmClient, ProfileSource), LlmError> {
    let config_dir = config::user_config_dir().unwrap_or_else(|| PathBuf::from("."));
    let resolved = resolve_profile(
        &config_dir,
        profile,
        &config::process_env,
        &config::probe_tcp,
    )?;
    let options = ClientOptions {
        mode,
        cache_dir: Some(cache_dir),
        ..ClientOptions::default()
    };
    let client = LlmClient::new(resolved.profile, options)?;
    Ok((client, resolved.source))
}
