//! Formalizing a document, as `precept formalize` and the workbench's
//! formalize (`F`) both do it, from one set of options (`precept.json`'s
//! `formalize`): the embedder they name, the spans formalized and composed,
//! and, when every span formalized, each decision joined into one
//! definition (`define::pass::define_formalized`).

use crate::compose::cluster::DEFAULT_THRESHOLD;
use crate::compose::document_run::{
    FormalizeError, FormalizeSettings, FormalizedDocument, formalize_document,
};
use crate::compose::embed::{Embedder, LexicalEmbedder};
use crate::formalize::span_job::SpanSettings;
use crate::formalize::span_runs::FormalizeEvent;
use crate::formalize::vocabulary::VocabularyMode;
use crate::llm::embeddings::{EmbedError, OpenAiEmbedder, project_cache_dir};
use crate::llm::{ClientOptions, LlmClient};
use crate::model::settings::{EmbedderKind, FormalizeOptions};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The cosine threshold used with an embeddings endpoint when none is
/// given. Not tuned for any particular model (the labelled pairs give 0.80
/// for all-MiniLM-L6-v2); give `threshold` for yours.
pub const REMOTE_THRESHOLD: f32 = 0.80;

/// Why a document was not formalized.
#[derive(Debug, thiserror::Error)]
pub enum FormalizationError {
    #[error("the threshold {0} is not a cosine similarity between 0 and 1")]
    Threshold(f32),
    #[error("the embeddings endpoint: {0}")]
    Embeddings(#[from] EmbedError),
    #[error("{0}")]
    MiniLm(String),
    #[error(transparent)]
    Formalize(#[from] FormalizeError),
}

/// Refuses options no formalization can run with, before anything is
/// asked of an LLM.
pub fn check_options(options: &FormalizeOptions) -> Result<(), FormalizationError> {
    match options.threshold {
        Some(threshold) if !(0.0..=1.0).contains(&threshold) => {
            Err(FormalizationError::Threshold(threshold))
        }
        _ => Ok(()),
    }
}

/// The embedder `options` name, with its threshold (`options.threshold`
/// when given). The OpenAI one caches its vectors under `project_cache`.
pub fn embedder(
    options: &FormalizeOptions,
    llm: &LlmClient,
    project_cache: &Path,
) -> Result<(Box<dyn Embedder>, f32), FormalizationError> {
    check_options(options)?;
    match options.embedder {
        EmbedderKind::Lexical => Ok((
            Box::new(LexicalEmbedder::new()),
            options.threshold.unwrap_or(DEFAULT_THRESHOLD),
        )),
        EmbedderKind::Openai => {
            let mut profile = llm.profile().clone();
            profile.model = options.embedding_model.clone();
            let client = ClientOptions {
                mode: llm.mode(),
                cache_dir: Some(project_cache_dir(project_cache)),
                ..ClientOptions::default()
            };
            let embedder = OpenAiEmbedder::new(profile, client)?;
            Ok((
                Box::new(embedder),
                options.threshold.unwrap_or(REMOTE_THRESHOLD),
            ))
        }
        EmbedderKind::Minilm => minilm(options.threshold),
    }
}

#[cfg(feature = "minilm")]
fn minilm(threshold: Option<f32>) -> Result<(Box<dyn Embedder>, f32), FormalizationError> {
    use crate::compose::embed_minilm::{MINILM_THRESHOLD, MiniLmEmbedder};
    let embedder =
        MiniLmEmbedder::from_env().map_err(|e| FormalizationError::MiniLm(e.to_string()))?;
    Ok((Box::new(embedder), threshold.unwrap_or(MINILM_THRESHOLD)))
}

#[cfg(not(feature = "minilm"))]
fn minilm(_threshold: Option<f32>) -> Result<(Box<dyn Embedder>, f32), FormalizationError> {
    Err(FormalizationError::MiniLm(
        "this precept was built without the MiniLM embedder: build it with \
         `cargo build --release --features minilm` and run scripts/setup-minilm.sh"
            .into(),
    ))
}

/// Formalizes `document` (named `document_name` in its project) with
/// `options`, then, when every span formalized and `options.definitions`,
/// applies each decision's definition whose check shows no inconsistency
/// (recorded in the record's `definitions`). `timeout` bounds each solver
/// check of the definition pass.
pub fn formalize(
    client: Arc<LlmClient>,
    document: &str,
    document_name: &str,
    options: &FormalizeOptions,
    project_cache: &Path,
    timeout: Duration,
    events: Arc<dyn Fn(FormalizeEvent) + Send + Sync>,
) -> Result<FormalizedDocument, FormalizationError> {
    let (embedder, threshold) = embedder(options, &client, project_cache)?;
    let settings = FormalizeSettings {
        span_budget: options.span_budget,
        span: SpanSettings {
            max_rounds: options.max_rounds.max(1),
            ..SpanSettings::default()
        },
        threshold,
        vocabulary: if options.span_only {
            VocabularyMode::SpanOnly
        } else {
            VocabularyMode::Shared
        },
    };
    let mut formalized = formalize_document(
        Arc::clone(&client),
        document,
        document_name,
        &settings,
        embedder.as_ref(),
        events,
    )?;
    if options.definitions && formalized.record.failed_spans() == 0 {
        crate::define::pass::define_formalized(
            &mut formalized.model,
            &mut formalized.record,
            document,
            &client,
            timeout,
        );
    }
    Ok(formalized)
}
