//! A chatbot probe from the workbench, on a thread of its own with its own
//! solver: the chatbot is the chosen `llm.toml` profile, the translator the
//! default one (as for answer checks), each with its own cache. Progress
//! and the report come back as messages; the cancel flag stops the run
//! between questions.

use crate::state::job_error::{JobError, Unavailable};
use crate::state::msg::Msg;
use precept_engine::answer::{AnswerVerifier, TranslationCache, VerifyOptions, samples_of};
use precept_engine::llm::{Mode, configured_client};
use precept_engine::model::project::CACHE_DIR;
use precept_engine::model::{CompiledModel, PolicyModel};
use precept_engine::probe::chatbot::{Chatbot, probe_concurrency};
use precept_engine::probe::report::ProbeReport;
use precept_engine::probe::run::{ProbeOptions, ProbeSetup, probe};
use precept_engine::solve::SolverWorker;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The chatbot's replies are cached apart from the translator's (the same
/// folder as `precept probe`'s, so either resumes the other's run).
pub const TARGET_CACHE: &str = "probe-target";

/// What one workbench probe runs on.
pub struct ProbeJob {
    pub stamp: precept_engine::workspace::Stamp,
    pub target: String,
    pub questions: usize,
    pub model: PolicyModel,
    pub compiled: CompiledModel,
    pub document: Option<String>,
    pub timeout: Duration,
}

/// The profiles of `llm.toml` in the configuration folder, and the
/// translator's (the default one).
pub fn targets(config_dir: Option<&Path>) -> Msg {
    let Some(dir) = config_dir else {
        return Msg::ProbeTargets {
            names: Vec::new(),
            translator: None,
            error: Some("there is no configuration folder".into()),
        };
    };
    match precept_engine::llm::config::profile_names(dir) {
        Ok((names, translator)) => Msg::ProbeTargets {
            names,
            translator,
            error: None,
        },
        Err(error) => Msg::ProbeTargets {
            names: Vec::new(),
            translator: None,
            error: Some(error.to_string()),
        },
    }
}

/// Starts the probe; returns its messages and the flag that stops it.
pub fn start_probe(project_dir: &Path, job: ProbeJob) -> (Receiver<Msg>, Arc<AtomicBool>) {
    let (send, receive) = mpsc::channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&cancel);
    let cache = project_dir.join(CACHE_DIR);
    std::thread::spawn(move || {
        let stamp = job.stamp;
        let events = send.clone();
        let on_event = move |event| {
            let _ = events.send(Msg::Probed { stamp, event });
        };
        let result = run(&cache, &job, &stop, &on_event).map(Box::new);
        let _ = send.send(Msg::ProbeFinished { stamp, result });
    });
    (receive, cancel)
}

fn run(
    cache: &Path,
    job: &ProbeJob,
    cancel: &AtomicBool,
    on_event: &(dyn Fn(precept_engine::probe::run::ProbeEvent) + Sync),
) -> Result<ProbeReport, JobError> {
    let translator = configured_client(None, Mode::Live, cache.join("llm"))
        .map(|(client, _)| Arc::new(client))
        .map_err(|e| JobError::doing("the translator", e))?;
    let target = configured_client(
        Some(&job.target),
        Mode::Live,
        PathBuf::from(cache).join(TARGET_CACHE),
    )
    .map(|(client, _)| client)
    .map_err(|e| JobError::doing(format!("the chatbot {}", job.target), e))?;
    let concurrency = probe_concurrency(&target, &translator)
        .map_err(|_| JobError::of(Unavailable::TranslatorProfile(job.target.clone())))?;
    let chatbot = Chatbot::new(Arc::new(target), None, None);
    let worker = SolverWorker::spawn(job.timeout);
    worker
        .load(job.compiled.clone())
        .map_err(|e| JobError::doing("the model does not load into the solver", e))?;
    let verifier = AnswerVerifier::new(
        &job.model,
        &job.compiled,
        samples_of(translator.clone(), 1),
        VerifyOptions::default(),
    )
    .with_cache(TranslationCache::in_project_cache(cache));
    let setup = ProbeSetup {
        model: &job.model,
        compiled: &job.compiled,
        document: job.document.as_deref(),
        worker: &worker,
        chatbot: &chatbot,
        verifier: &verifier,
        translator: Some(translator.as_ref()),
        translator_name: translator.profile().name.clone(),
        cancel: Some(cancel),
    };
    let options = ProbeOptions {
        questions: job.questions,
        follow_ups: true,
        concurrency,
        ..ProbeOptions::default()
    };
    Ok(probe(&setup, &options, on_event))
}
