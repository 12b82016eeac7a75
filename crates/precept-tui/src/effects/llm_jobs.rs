//! The workbench's LLM jobs, each on a thread of its own that reports back
//! as messages on a channel: formalizing the document (progress events,
//! then the composed model), proposing a repair, consolidating, running the
//! natural-language tests, and checking a question and answer (translations
//! as they arrive, then the report). Each has what stops it, so these stay
//! effects of their own rather than tasks.

use crate::state::job_error::JobError;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use crate::state::msg::{Msg, Redundancy};
use precept_engine::answer::answer_tests::judge;
use precept_engine::answer::{
    AnswerInput, AnswerTestOutcome, AnswerVerifier, TranslationCache, VerifyCancel, VerifyOptions,
    samples_of,
};
use precept_engine::formalization::formalize;
use precept_engine::llm::{CancelToken, LlmClient, Mode, configured_client};
use precept_engine::model::Settings;
use precept_engine::model::settings::FormalizeOptions;
use precept_engine::model::{AnswerTest, CompiledModel, LogicTest, PolicyModel};
use precept_engine::repair::propose_repair;
use precept_engine::solve::SolverWorker;

fn client(project_dir: &Path) -> Result<LlmClient, JobError> {
    let cache = project_dir
        .join(precept_engine::model::project::CACHE_DIR)
        .join("llm");
    configured_client(None, Mode::Live, cache)
        .map(|(client, _)| client)
        .map_err(JobError::of)
}

/// Starts formalizing `document` with the project's formalize options
/// (`precept.json`, as `precept formalize` recorded them; the defaults
/// otherwise), as the command line does (`engine::formalization`); returns
/// the message channel and the token that cancels it (None when no LLM is
/// configured: the error is already on the channel).
pub fn start_formalize(
    project_dir: &Path,
    timeout: Duration,
    stamp: precept_engine::workspace::Stamp,
    document: String,
    document_name: String,
) -> (Receiver<Msg>, Option<CancelToken>) {
    let (send, receive) = mpsc::channel();
    let client = match client(project_dir) {
        Ok(client) => client,
        Err(error) => {
            let _ = send.send(Msg::FormalizeDone {
                stamp,
                result: Err(error),
            });
            return (receive, None);
        }
    };
    let options = formalize_options(project_dir);
    let cache = project_dir.join(precept_engine::model::project::CACHE_DIR);
    let cancel = client.cancel_token();
    std::thread::spawn(move || {
        let events = send.clone();
        let progress = Arc::new(move |event| {
            let _ = events.send(Msg::Formalize { stamp, event });
        });
        let result = formalize(
            Arc::new(client),
            &document,
            &document_name,
            &options,
            &cache,
            timeout,
            progress,
        );
        let _ = send.send(Msg::FormalizeDone {
            stamp,
            result: result.map(Box::new).map_err(JobError::of),
        });
    });
    (receive, Some(cancel))
}

/// The project's formalize options; the defaults when it records none (or
/// its settings cannot be read: the project loaded, so they were once).
fn formalize_options(project_dir: &Path) -> FormalizeOptions {
    let path = project_dir.join(precept_engine::model::project::SETTINGS_FILE);
    precept_engine::model::project::read_json::<Settings>(&path)
        .ok()
        .and_then(|settings| settings.formalize)
        .unwrap_or_default()
}

/// Asks for a repair; one message answers.
pub fn start_repair(
    project_dir: &Path,
    stamp: precept_engine::workspace::Stamp,
    model: PolicyModel,
    rules: Vec<String>,
    feedback: String,
) -> Receiver<Msg> {
    let (send, receive) = mpsc::channel();
    let project_dir = project_dir.to_path_buf();
    std::thread::spawn(move || {
        let result = client(&project_dir).and_then(|client| {
            let runtime = precept_engine::llm::runtime::blocking_runtime().map_err(JobError::of)?;
            runtime
                .block_on(propose_repair(&client, &model, &rules, &feedback))
                .map_err(JobError::of)
        });
        let _ = send.send(Msg::RepairProposed { stamp, result });
    });
    receive
}

/// Consolidation proposals for `model`: the merges its record left open,
/// and (when an LLM is configured) the LLM's review of the vocabulary; each
/// checked by the solver. One message at the end.
pub fn start_consolidation(
    project_dir: &Path,
    stamp: precept_engine::workspace::Stamp,
    model: PolicyModel,
    record: Option<precept_engine::compose::record::FormalizationRecord>,
    tests: Vec<LogicTest>,
    timeout: Duration,
) -> Receiver<Msg> {
    use precept_engine::compose::consolidate::{number, read_reply, similarity_proposals};
    use precept_engine::compose::consolidate_check::{check_proposals, consolidation_request};
    let (send, receive) = mpsc::channel();
    let client = client(project_dir);
    let dir = project_dir.to_path_buf();
    std::thread::spawn(move || {
        let mut proposals = record
            .as_ref()
            .map(|r| similarity_proposals(r, &model))
            .unwrap_or_default();
        let mut notes = Vec::new();
        let llm = match client {
            Ok(client) => {
                match precept_engine::llm::complete_blocking(
                    &client,
                    &consolidation_request(&client, &model),
                ) {
                    Ok(reply) => {
                        let (asked, refused) = read_reply(&reply.json);
                        proposals.extend(asked);
                        notes.extend(refused.into_iter().map(|r| format!("not a proposal: {r}")));
                    }
                    Err(error) => notes.push(format!("the LLM could not be asked: {error}")),
                }
                Some(client)
            }
            Err(error) => {
                notes.push(format!(
                    "no LLM configured, so only the open merges and the definitions the rules' shapes give: {}",
                    error.to_string().lines().next().unwrap_or_default()
                ));
                None
            }
        };
        let document = precept_engine::model::Project::load_unchecked(&dir)
            .ok()
            .and_then(|p| p.document);
        let proposals = number(proposals);
        let mut checked = check_proposals(&model, record.as_ref(), &tests, &proposals, timeout);
        // The definition pass: one definition per decision written apart,
        // listed and applied like the links above.
        let scheduler = precept_engine::scheduler::Scheduler::new(2, timeout);
        let definitions = precept_engine::define::pass::definition_pass(
            &model,
            &tests,
            document.as_deref(),
            llm.as_ref(),
            &scheduler,
            timeout,
        );
        notes.extend(
            definitions
                .refused_replies
                .iter()
                .map(|r| format!("definition reply refused: {r}")),
        );
        checked.extend(
            definitions
                .proposals
                .iter()
                .map(precept_engine::define::pass::as_consolidation),
        );
        let _ = send.send(Msg::Consolidated {
            stamp,
            result: Ok(crate::state::msg::Consolidation {
                proposals: checked,
                notes,
            }),
        });
    });
    receive
}

/// An answer verifier with k samples of the configured profile and the
/// project's translation cache, and a solver with `compiled` loaded.
fn verifier(
    project_dir: &Path,
    model: &PolicyModel,
    compiled: &CompiledModel,
    redundancy: Redundancy,
    timeout: Duration,
) -> Result<(AnswerVerifier, SolverWorker), JobError> {
    let client = client(project_dir)?;
    let cache_dir = project_dir.join(precept_engine::model::project::CACHE_DIR);
    let verifier = AnswerVerifier::new(
        model,
        compiled,
        samples_of(Arc::new(client), redundancy.translations),
        VerifyOptions {
            threshold: redundancy.threshold,
            ..VerifyOptions::default()
        },
    )
    .with_cache(TranslationCache::in_project_cache(&cache_dir));
    let worker = SolverWorker::spawn(timeout);
    worker.load(compiled.clone()).map_err(JobError::of)?;
    Ok((verifier, worker))
}

/// Checks a question and answer with k samples of the configured
/// profile: progress messages as translations arrive, then the report.
pub fn start_check_answer(
    project_dir: &Path,
    stamp: precept_engine::workspace::Stamp,
    input: AnswerInput,
    model: PolicyModel,
    compiled: CompiledModel,
    redundancy: Redundancy,
    timeout: Duration,
) -> (Receiver<Msg>, VerifyCancel) {
    let (send, receive) = mpsc::channel();
    let cancel = VerifyCancel::new();
    let stop = cancel.clone();
    let project_dir = project_dir.to_path_buf();
    std::thread::spawn(move || {
        let result = verifier(&project_dir, &model, &compiled, redundancy, timeout).and_then(
            |(verifier, worker)| {
                let events = send.clone();
                let mut on_event = move |event| {
                    let _ = events.send(Msg::AnswerProgress { stamp, event });
                };
                verifier
                    .verify(&worker, &input, &mut on_event, &stop)
                    .map(Box::new)
                    .map_err(JobError::of)
            },
        );
        let _ = send.send(Msg::AnswerChecked { stamp, result });
    });
    (receive, cancel)
}

/// Runs natural-language tests one after the other with k samples of
/// the configured profile; a message per test, then one at the end.
pub fn start_answer_tests(
    project_dir: &Path,
    stamp: precept_engine::workspace::Stamp,
    model: PolicyModel,
    compiled: CompiledModel,
    tests: Vec<AnswerTest>,
    redundancy: Redundancy,
    timeout: Duration,
) -> (Receiver<Msg>, VerifyCancel) {
    let (send, receive) = mpsc::channel();
    let cancel = VerifyCancel::new();
    let stop = cancel.clone();
    let project_dir = project_dir.to_path_buf();
    std::thread::spawn(move || {
        let setup = verifier(&project_dir, &model, &compiled, redundancy, timeout);
        for test in &tests {
            if stop.is_cancelled() {
                break;
            }
            let outcome = match &setup {
                Ok((verifier, worker)) => {
                    let input = AnswerInput::new(&test.question, &test.answer);
                    match verifier.verify(worker, &input, &mut |_| {}, &stop) {
                        Ok(report) => judge(test, report, verifier.options().threshold),
                        Err(error) => AnswerTestOutcome::not_run(test, error.to_string()),
                    }
                }
                Err(error) => AnswerTestOutcome::not_run(test, error.to_string()),
            };
            if send
                .send(Msg::AnswerTestDone {
                    stamp,
                    outcome: Box::new(outcome),
                })
                .is_err()
            {
                return;
            }
        }
        let _ = send.send(Msg::AnswerTestsFinished { stamp });
    });
    (receive, cancel)
}
