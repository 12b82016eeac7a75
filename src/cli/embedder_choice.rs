//! `--embedder`: which embedder clusters the variables of a formalization,
//! with the threshold that suits it.

use super::common::Failure;
use precept_engine::compose::cluster::DEFAULT_THRESHOLD;
use precept_engine::compose::embed::{Embedder, LexicalEmbedder};
use precept_engine::llm::embeddings::{OpenAiEmbedder, project_cache_dir};
use precept_engine::llm::{ClientOptions, LlmClient};
use std::path::Path;

/// The cosine threshold used with an embeddings endpoint when none is
/// given. Not tuned for any particular model (the labelled pairs give 0.80
/// for all-MiniLM-L6-v2); pass `--threshold` for yours.
pub const REMOTE_THRESHOLD: f32 = 0.80;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EmbedderKind {
    /// Words and character n-grams with tf-idf (offline, the default)
    #[default]
    Lexical,
    /// The OpenAI-compatible /v1/embeddings endpoint of the LLM profile
    Openai,
    /// all-MiniLM-L6-v2 on this machine (builds with --features minilm)
    Minilm,
}

/// The chosen embedder and its threshold (`threshold` when given).
pub fn embedder(
    kind: EmbedderKind,
    threshold: Option<f32>,
    embedding_model: &str,
    llm: &LlmClient,
    project_cache: &Path,
) -> Result<(Box<dyn Embedder>, f32), Failure> {
    match kind {
        EmbedderKind::Lexical => Ok((
            Box::new(LexicalEmbedder::new()),
            threshold.unwrap_or(DEFAULT_THRESHOLD),
        )),
        EmbedderKind::Openai => {
            let mut profile = llm.profile().clone();
            profile.model = embedding_model.to_string();
            let options = ClientOptions {
                mode: llm.mode(),
                cache_dir: Some(project_cache_dir(project_cache)),
                ..ClientOptions::default()
            };
            let embedder =
                OpenAiEmbedder::new(profile, options).map_err(|e| Failure::Input(e.to_string()))?;
            Ok((Box::new(embedder), threshold.unwrap_or(REMOTE_THRESHOLD)))
        }
        EmbedderKind::Minilm => minilm(threshold),
    }
}

#[cfg(feature = "minilm")]
fn minilm(threshold: Option<f32>) -> Result<(Box<dyn Embedder>, f32), Failure> {
    use precept_engine::compose::embed_minilm::{MINILM_THRESHOLD, MiniLmEmbedder};
    let embedder = MiniLmEmbedder::from_env().map_err(|e| Failure::Input(e.to_string()))?;
    Ok((Box::new(embedder), threshold.unwrap_or(MINILM_THRESHOLD)))
}

#[cfg(not(feature = "minilm"))]
fn minilm(_threshold: Option<f32>) -> Result<(Box<dyn Embedder>, f32), Failure> {
    Err(Failure::Input(
        "this precept was built without the MiniLM embedder: build it with \
         `cargo build --release --features minilm` and run scripts/setup-minilm.sh"
            .into(),
    ))
}
