//! Probing a chatbot: the chatbot is an `llm.toml` profile, the translator
//! the default one (as for answer checks), each with its own cache (the
//! chatbot's in the same folder as `precept probe`'s, so either resumes
//! the other's run). The cancel stops the run between questions.

use super::{JobContext, profile_client};
use crate::answer::{AnswerVerifier, TranslationCache, VerifyOptions, samples_of};
use crate::llm::{Cancel, LlmError};
use crate::model::{CompiledModel, PolicyModel};
use crate::probe::chatbot::{Chatbot, probe_concurrency};
use crate::probe::report::ProbeReport;
use crate::probe::run::{ProbeEvent, ProbeOptions, ProbeSetup, probe};
use crate::solve::{SolveError, SolverWorker};
use std::sync::Arc;

/// The chatbot's replies are cached apart from the translator's.
pub const TARGET_CACHE: &str = "probe-target";

/// What one probe runs on.
pub struct ProbeRequest {
    /// The chatbot's `llm.toml` profile.
    pub target: String,
    pub questions: usize,
    pub model: PolicyModel,
    pub compiled: CompiledModel,
    pub document: Option<String>,
}

/// Why a probe did not start.
#[derive(Debug, thiserror::Error)]
pub enum ProbeStartError {
    #[error("the translator: {0}")]
    Translator(LlmError),
    #[error("the chatbot {0}: {1}")]
    Chatbot(String, LlmError),
    #[error("{0} is the translator's profile: choose another chatbot to test")]
    TranslatorProfile(String),
    #[error("the model does not load into the solver: {0}")]
    Load(SolveError),
}

/// Probes the chatbot `request.target` names; `on_event` hears each
/// question as it is settled.
pub fn run_probe(
    context: &JobContext,
    request: &ProbeRequest,
    cancel: &Cancel,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> Result<ProbeReport, ProbeStartError> {
    let cache = context.cache_dir();
    let translator = Arc::new(
        context
            .client(cancel)
            .map_err(ProbeStartError::Translator)?,
    );
    let target = profile_client(Some(&request.target), &cache.join(TARGET_CACHE), cancel)
        .map_err(|e| ProbeStartError::Chatbot(request.target.clone(), e))?;
    let concurrency = probe_concurrency(&target, &translator)
        .map_err(|_| ProbeStartError::TranslatorProfile(request.target.clone()))?;
    let chatbot = Chatbot::new(Arc::new(target), None, None);
    let worker = SolverWorker::spawn(context.timeout);
    worker
        .load(request.compiled.clone())
        .map_err(ProbeStartError::Load)?;
    let verifier = AnswerVerifier::new(
        &request.model,
        &request.compiled,
        samples_of(translator.clone(), 1),
        VerifyOptions::default(),
    )
    .with_cache(TranslationCache::in_project_cache(&cache));
    let setup = ProbeSetup {
        model: &request.model,
        compiled: &request.compiled,
        document: request.document.as_deref(),
        worker: &worker,
        chatbot: &chatbot,
        verifier: &verifier,
        translator: Some(translator.as_ref()),
        translator_name: translator.profile().name.clone(),
        cancel: Some(cancel),
    };
    let options = ProbeOptions {
        questions: request.questions,
        follow_ups: true,
        concurrency,
        ..ProbeOptions::default()
    };
    Ok(probe(&setup, &options, on_event))
}
