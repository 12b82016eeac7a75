//! Checking a question and its answer against the model with k samples of
//! the configured translator, and running the natural-language answer
//! tests one after the other the same way.

use super::JobContext;
use crate::answer::answer_tests::judge;
use crate::answer::{
    AnswerInput, AnswerReport, AnswerTestOutcome, AnswerVerifier, TranslationCache, VerifyError,
    VerifyEvent, VerifyOptions, samples_of,
};
use crate::llm::{Cancel, LlmError};
use crate::model::{AnswerTest, CompiledModel, PolicyModel};
use crate::solve::{SolveError, SolverWorker};
use std::sync::Arc;

/// How many translations an answer check asks for (k), and the share of
/// them a pair needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Redundancy {
    pub translations: usize,
    pub threshold: f64,
}

/// Why an answer could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum AnswerJobError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// The model and how to check answers against it.
pub struct AnswerSetup<'a> {
    pub model: &'a PolicyModel,
    pub compiled: &'a CompiledModel,
    pub redundancy: Redundancy,
}

/// A verifier with k samples of the configured profile and the project's
/// translation cache, and a solver with the model loaded.
fn verifier(
    context: &JobContext,
    setup: &AnswerSetup,
    cancel: &Cancel,
) -> Result<(AnswerVerifier, SolverWorker), AnswerJobError> {
    let client = context.client(cancel)?;
    let verifier = AnswerVerifier::new(
        setup.model,
        setup.compiled,
        samples_of(Arc::new(client), setup.redundancy.translations),
        VerifyOptions {
            threshold: setup.redundancy.threshold,
            ..VerifyOptions::default()
        },
    )
    .with_cache(TranslationCache::in_project_cache(&context.cache_dir()));
    let worker = SolverWorker::spawn(context.timeout);
    worker.load(setup.compiled.clone())?;
    Ok((verifier, worker))
}

/// The report on `input`; `on_event` hears each translation as it arrives.
pub fn check_answer(
    context: &JobContext,
    setup: &AnswerSetup,
    input: &AnswerInput,
    cancel: &Cancel,
    on_event: &mut dyn FnMut(VerifyEvent),
) -> Result<AnswerReport, AnswerJobError> {
    let (verifier, worker) = verifier(context, setup, cancel)?;
    Ok(verifier.verify(&worker, input, on_event, cancel)?)
}

/// Runs `tests` in order until cancelled; `on_outcome` hears each one's
/// outcome, and returns false to stop the run (nobody is listening).
/// A test that could not be run says why.
pub fn run_answer_tests(
    context: &JobContext,
    setup: &AnswerSetup,
    tests: &[AnswerTest],
    cancel: &Cancel,
    on_outcome: &mut dyn FnMut(AnswerTestOutcome) -> bool,
) {
    let ready = verifier(context, setup, cancel);
    for test in tests {
        if cancel.is_cancelled() {
            return;
        }
        let outcome = match &ready {
            Ok((verifier, worker)) => {
                let input = AnswerInput::new(&test.question, &test.answer);
                match verifier.verify(worker, &input, &mut |_| {}, cancel) {
                    Ok(report) => judge(test, report, verifier.options().threshold),
                    Err(error) => AnswerTestOutcome::not_run(test, error.to_string()),
                }
            }
            Err(error) => AnswerTestOutcome::not_run(test, error.to_string()),
        };
        if !on_outcome(outcome) {
            return;
        }
    }
}
