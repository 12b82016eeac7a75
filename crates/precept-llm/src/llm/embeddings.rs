//! Embedders: the [`Embedder`] interface (the offline lexical one lives in
//! `compose::embed`), and embeddings from an OpenAI-compatible server: `POST {base_url}/v1/embeddings`
//! with `{"model": ..., "input": [texts...]}`, answered by
//! `{"data": [{"index": i, "embedding": [...]}, ...]}` (OpenAI, Ollama, vLLM,
//! llama.cpp server, LM Studio).
//!
//! The server is named by an LLM [`Profile`] (base URL, model, the
//! environment variable holding the key, timeout) and the request options
//! by [`ClientOptions`] (cache directory and mode, retries, where keys are
//! read from, proxy). Inputs are sent in batches; every reply is checked
//! (count, indices, equal dimensions, finite numbers) before it is used or
//! cached. Vectors are cached one file per text under the cache directory,
//! named by the SHA-256 of the server, the model and the text; the key is
//! never part of a cache file or an error message.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::json;

pub use super::embedding_reply::{UnusableReply, parse_embeddings};
use crate::llm::config::Protocol;
use crate::llm::{
    Attempt, ClientOptions, LlmError, Mode, Profile, exchange, http_client, mask_secret,
    retry_wait, snippet,
};
use crate::model::project::write_atomic;

/// Something that turns texts into vectors whose cosine similarity reflects
/// similarity of meaning.
pub trait Embedder {
    /// One vector per input text, in order. All vectors have the same length.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
    /// A short, stable identifier of the embedder (for logs and reports).
    fn name(&self) -> &str;
}

/// Texts per request unless [`OpenAiEmbedder::with_batch_size`] says
/// otherwise (OpenAI accepts up to 2,048; local servers prefer fewer).
pub const DEFAULT_BATCH_SIZE: usize = 64;

/// The cache folder inside a project's `.cache/`.
pub const CACHE_SUBDIR: &str = "embeddings";

/// Why embedding failed.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embeddings are not available: {0}")]
    NotConfigured(String),
    /// The request failed: no answer, a timeout, an HTTP error status (after
    /// the retries), or a cancellation.
    #[error("embeddings request to {url} failed: {source}")]
    Request {
        url: String,
        #[source]
        source: LlmError,
    },
    #[error("the embeddings reply from {url} is unusable: {reason} (reply: {raw_snippet})")]
    InvalidReply {
        url: String,
        reason: String,
        raw_snippet: String,
    },
    #[error("embedding cache {path}: {message}")]
    Cache { path: String, message: String },
    #[error(
        "no cached embedding for text {index} ({text_snippet:?}) in {dir}; run once in live or record mode"
    )]
    NotRecorded {
        index: usize,
        text_snippet: String,
        dir: String,
    },
    /// A local embedder (a model run in this process) failed.
    #[error("{0}")]
    Local(String),
    #[error("{0}")]
    Internal(String),
}

/// An [`Embedder`] backed by an OpenAI-compatible `/v1/embeddings` endpoint.
pub struct OpenAiEmbedder {
    profile: Profile,
    options: ClientOptions,
    batch_size: usize,
    url: String,
    http: reqwest::Client,
    /// Created on first use by the blocking [`Embedder::embed`].
    runtime: OnceLock<tokio::runtime::Runtime>,
    /// `"openai-embeddings:{model}"`, for [`Embedder::name`].
    name: String,
}

impl fmt::Debug for OpenAiEmbedder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.api_key().map(|k| mask_secret(&k));
        f.debug_struct("OpenAiEmbedder")
            .field("profile", &self.profile)
            .field("api_key", &key)
            .field("options", &self.options)
            .field("batch_size", &self.batch_size)
            .finish_non_exhaustive()
    }
}

/// The embeddings endpoint of `base_url` (a trailing `/` or `/v1` is
/// tolerated, as for chat completions).
pub fn embeddings_endpoint(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let base = base.strip_suffix("/v1").unwrap_or(base);
    format!("{base}/v1/embeddings")
}

/// The cache key of `text` embedded by `model` on the server at `base_url`:
/// the hex SHA-256 of the three, length-prefixed.
pub fn cache_key(base_url: &str, model: &str, text: &str) -> String {
    crate::llm::cache::hash_parts(&["embeddings", base_url.trim_end_matches('/'), model, text])
}

/// The embeddings cache of a project whose cache folder is `project_cache`
/// (see `Project::cache_dir`).
pub fn project_cache_dir(project_cache: &Path) -> PathBuf {
    project_cache.join(CACHE_SUBDIR)
}

impl OpenAiEmbedder {
    /// An embedder for the model and server of `profile`, which must speak
    /// the OpenAI protocol (Anthropic has no embeddings endpoint). With
    /// `options.cache_dir` set, vectors are cached there (use
    /// [`project_cache_dir`]); `options.mode` works as for the LLM client.
    pub fn new(profile: Profile, options: ClientOptions) -> Result<OpenAiEmbedder, EmbedError> {
        if profile.protocol != Protocol::OpenAi {
            return Err(EmbedError::NotConfigured(format!(
                "profile '{}' speaks the {} protocol, which has no embeddings endpoint; \
                 use an OpenAI-compatible server",
                profile.name,
                profile.protocol.as_str()
            )));
        }
        if profile.model.trim().is_empty() {
            return Err(EmbedError::NotConfigured(format!(
                "profile '{}' names no embedding model",
                profile.name
            )));
        }
        let url = embeddings_endpoint(&profile.base_url);
        let http = http_client(&profile, options.use_env_proxy)
            .map_err(|e| EmbedError::Internal(e.to_string()))?;
        let name = format!("openai-embeddings:{}", profile.model);
        Ok(OpenAiEmbedder {
            profile,
            options,
            batch_size: DEFAULT_BATCH_SIZE,
            url,
            http,
            runtime: OnceLock::new(),
            name,
        })
    }

    /// At most `size` texts per request (at least 1).
    pub fn with_batch_size(mut self, size: usize) -> OpenAiEmbedder {
        self.batch_size = size.max(1);
        self
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    pub fn endpoint(&self) -> &str {
        &self.url
    }

    /// The key, read from the environment now (never stored).
    fn api_key(&self) -> Option<String> {
        let name = self.profile.api_key_env.as_deref()?;
        (self.options.env)(name).filter(|k| !k.trim().is_empty())
    }

    /// One vector per text, in order, all of one dimension: from the cache
    /// where possible, else from the server in batches.
    pub async fn embed_async(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut vectors: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        let cache_dir = self.options.cache_dir.as_deref();
        if self.options.mode != Mode::Record
            && let Some(dir) = cache_dir
        {
            for (slot, text) in vectors.iter_mut().zip(texts) {
                *slot = load_cached(dir, &self.key_of(text))?;
            }
        }
        // Each distinct missing text is asked for once.
        let mut missing: Vec<usize> = Vec::new();
        let mut first_of: HashMap<&str, usize> = HashMap::new();
        for (i, text) in texts.iter().enumerate() {
            if vectors[i].is_none() && !first_of.contains_key(text.as_str()) {
                first_of.insert(text, i);
                missing.push(i);
            }
        }
        if !missing.is_empty() && self.options.mode == Mode::Replay {
            let index = missing[0];
            return Err(EmbedError::NotRecorded {
                index,
                text_snippet: snippet(&texts[index]),
                dir: cache_dir
                    .map(|d| d.display().to_string())
                    .unwrap_or_else(|| "(no cache directory)".into()),
            });
        }
        let mut dimension = vectors.iter().flatten().map(Vec::len).next();
        for chunk in missing.chunks(self.batch_size) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i].as_str()).collect();
            let raw = self.fetch(&batch).await?;
            let fresh =
                parse_embeddings(&raw, batch.len()).map_err(|reason| EmbedError::InvalidReply {
                    url: self.url.clone(),
                    reason: reason.to_string(),
                    raw_snippet: snippet(&raw),
                })?;
            for (&i, vector) in chunk.iter().zip(fresh) {
                match dimension {
                    Some(d) if d != vector.len() => {
                        return Err(EmbedError::InvalidReply {
                            url: self.url.clone(),
                            reason: format!(
                                "embeddings have {} dimensions, but earlier ones (or cached \
                                 ones) have {d}; did the model behind '{}' change? Clear the \
                                 cache if so",
                                vector.len(),
                                self.profile.model
                            ),
                            raw_snippet: snippet(&raw),
                        });
                    }
                    _ => dimension = Some(vector.len()),
                }
                if let Some(dir) = cache_dir {
                    store_cached(dir, &self.key_of(&texts[i]), &vector)?;
                }
                vectors[i] = Some(vector);
            }
        }
        // Fill duplicates from their first occurrence; check dimensions of
        // cached vectors too.
        let mut out = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            let vector = match &vectors[i] {
                Some(v) => v.clone(),
                None => first_of
                    .get(text.as_str())
                    .and_then(|&j| vectors[j].clone())
                    .ok_or_else(|| {
                        EmbedError::Internal(format!("no embedding was produced for text {i}"))
                    })?,
            };
            if let Some(d) = dimension
                && vector.len() != d
            {
                let dir = cache_dir
                    .map(|d| d.display().to_string())
                    .unwrap_or_default();
                return Err(EmbedError::Cache {
                    path: dir,
                    message: format!(
                        "cached embeddings of '{}' have different dimensions ({} and {d}); \
                         clear the cache",
                        self.profile.model,
                        vector.len()
                    ),
                });
            }
            out.push(vector);
        }
        Ok(out)
    }

    fn key_of(&self, text: &str) -> String {
        cache_key(&self.profile.base_url, &self.profile.model, text)
    }

    /// The successful response body for one batch, after retries.
    async fn fetch(&self, batch: &[&str]) -> Result<String, EmbedError> {
        let body = json!({"model": self.profile.model, "input": batch});
        let key = self.api_key();
        let retry = self.options.retry;
        let request_error = |source: LlmError| EmbedError::Request {
            url: self.url.clone(),
            source,
        };
        let mut attempt = 0u32;
        loop {
            let mut builder = self.http.post(&self.url).json(&body);
            if let Some(key) = key.as_deref() {
                builder = builder.bearer_auth(key);
            }
            match exchange(builder, self.profile.timeout)
                .await
                .map_err(request_error)?
            {
                Attempt::Done(raw) => return Ok(raw),
                Attempt::Retry { error, wait } => {
                    if attempt >= retry.max_retries {
                        return Err(request_error(error));
                    }
                    tokio::time::sleep(retry_wait(&retry, attempt, wait)).await;
                    attempt += 1;
                }
            }
        }
    }

    /// [`embed_async`](Self::embed_async) from synchronous code, on a
    /// runtime owned by the embedder. Must not be called from inside an
    /// async runtime.
    pub fn embed_blocking(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if crate::llm::runtime::inside_runtime() {
            return Err(EmbedError::Internal(
                "OpenAiEmbedder::embed was called inside an async runtime; use embed_async".into(),
            ));
        }
        let runtime = match self.runtime.get() {
            Some(runtime) => runtime,
            None => {
                let built = crate::llm::runtime::blocking_runtime().map_err(|e| {
                    EmbedError::Internal(format!("cannot start the embeddings runtime: {e}"))
                })?;
                // Another thread may have won the race; either runtime will do.
                let _ = self.runtime.set(built);
                self.runtime
                    .get()
                    .ok_or_else(|| EmbedError::Internal("the embeddings runtime vanished".into()))?
            }
        };
        runtime.block_on(self.embed_async(texts))
    }
}

impl Embedder for OpenAiEmbedder {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.embed_blocking(texts)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

fn cache_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.f32"))
}

/// A cached vector: little-endian `f32`s, nothing else. `None` when absent.
fn load_cached(dir: &Path, key: &str) -> Result<Option<Vec<f32>>, EmbedError> {
    let path = cache_path(dir, key);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(EmbedError::Cache {
                path: path.display().to_string(),
                message: e.to_string(),
            });
        }
    };
    let malformed = |message: &str| EmbedError::Cache {
        path: path.display().to_string(),
        message: format!("{message}; delete the file to fetch it again"),
    };
    if bytes.is_empty() || bytes.len() % 4 != 0 {
        return Err(malformed(&format!(
            "{} bytes is not a whole number of 32-bit floats",
            bytes.len()
        )));
    }
    let vector: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if vector.iter().any(|x| !x.is_finite()) {
        return Err(malformed("holds a number that is not finite"));
    }
    Ok(Some(vector))
}

fn store_cached(dir: &Path, key: &str, vector: &[f32]) -> Result<(), EmbedError> {
    let path = cache_path(dir, key);
    let cache_error = |message: String| EmbedError::Cache {
        path: path.display().to_string(),
        message,
    };
    std::fs::create_dir_all(dir).map_err(|e| cache_error(e.to_string()))?;
    let bytes: Vec<u8> = vector.iter().flat_map(|x| x.to_le_bytes()).collect();
    write_atomic(&path, &bytes).map_err(|e| cache_error(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_tolerates_suffixes() {
        for base in [
            "http://h:1",
            "http://h:1/",
            "http://h:1/v1",
            "http://h:1/v1/",
        ] {
            assert_eq!(embeddings_endpoint(base), "http://h:1/v1/embeddings");
        }
    }

    #[test]
    fn cache_key_separates_parts() {
        assert_ne!(cache_key("u", "ab", "c"), cache_key("u", "a", "bc"));
        assert_eq!(cache_key("u/", "m", "t"), cache_key("u", "m", "t"));
        assert_eq!(cache_key("u", "m", "t").len(), 64);
    }

    #[test]
    fn parses_in_index_order() {
        let raw = r#"{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}"#;
        assert_eq!(
            parse_embeddings(raw, 2).unwrap(),
            vec![vec![1.0, 0.0], vec![0.0, 1.0]]
        );
        let no_index = r#"{"data":[{"embedding":[1]},{"embedding":[2]}]}"#;
        assert_eq!(
            parse_embeddings(no_index, 2).unwrap(),
            vec![vec![1.0], vec![2.0]]
        );
    }

    #[test]
    fn rejects_bad_replies() {
        let cases = [
            ("not json", "not JSON"),
            (r#"{"object":"list"}"#, "no \"data\" array"),
            (
                r#"{"data":[{"index":0,"embedding":[1]}]}"#,
                "expected 2 embeddings",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}"#,
                "index 0 occurs twice",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1]},{"index":5,"embedding":[2]}]}"#,
                "outside 0..2",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1]},{"embedding":[2]}]}"#,
                "have no \"index\"",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[2]}]}"#,
                "1 dimensions, but others have 2",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":["x"]}]}"#,
                "data[1].embedding [0] is \"x\", not a number",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1e300]}]}"#,
                "not a finite 32-bit number",
            ),
            (
                r#"{"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":[1]}]}"#,
                "base64",
            ),
            (
                r#"{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1]}]}"#,
                "is empty",
            ),
            (
                r#"{"error":{"message":"model not found"}}"#,
                "model not found",
            ),
        ];
        for (raw, expected) in cases {
            let error = parse_embeddings(raw, 2).unwrap_err();
            assert!(error.to_string().contains(expected), "{raw}: {error}");
        }
    }
}
