//! What an edit would do to the test suite before the expert accepts it:
//! the tests whose pass/fail (or finding) would change, each decided by the
//! solver on the edited model.

use std::time::Duration;

use serde::Serialize;

use crate::model::ModelEdit;
use crate::model::{EditError, LogicTest, PolicyModel, compile};
use crate::solve::{FindingKind, SolveError, SolverWorker};
use crate::test_runner::{TestOutcome, run_tests};

/// Why the flips of an edit could not be worked out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PreviewError {
    #[error("the model does not check: {0}")]
    ModelDoesNotCheck(String),
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Solver(#[from] SolveError),
}

/// A test whose result an edit would change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestFlip {
    pub test_id: String,
    pub label: String,
    pub expected: FindingKind,
    pub before: Option<FindingKind>,
    pub after: Option<FindingKind>,
    pub passed_before: bool,
    pub passes_after: bool,
}

/// The suite's outcomes on `model` (tests waiting for review left out).
pub fn suite_outcomes(
    model: &PolicyModel,
    tests: &[LogicTest],
    timeout: Duration,
) -> Result<Vec<TestOutcome>, PreviewError> {
    let compiled = compile(model);
    if let Some(issue) = compiled.issues.first() {
        return Err(PreviewError::ModelDoesNotCheck(issue.to_string()));
    }
    let counted: Vec<LogicTest> = tests
        .iter()
        .filter(|t| t.status.counts())
        .cloned()
        .collect();
    let worker = SolverWorker::spawn(timeout);
    worker.load(compiled.clone())?;
    Ok(run_tests(&worker, &compiled, &counted))
}

/// The flips of applying `edits` (in order) to `model`, against `baseline`
/// (the suite's outcomes on `model`).
pub fn preview_flips(
    model: &PolicyModel,
    tests: &[LogicTest],
    baseline: &[TestOutcome],
    edits: &[&ModelEdit],
    timeout: Duration,
) -> Result<Vec<TestFlip>, PreviewError> {
    let mut edited = model.clone();
    for edit in edits {
        edit.apply(&mut edited)?;
    }
    flips_of(&edited, tests, baseline, timeout)
}

/// The tests whose result differs on `edited` from `baseline` (the suite's
/// outcomes before the change).
pub fn flips_of(
    edited: &PolicyModel,
    tests: &[LogicTest],
    baseline: &[TestOutcome],
    timeout: Duration,
) -> Result<Vec<TestFlip>, PreviewError> {
    let after = suite_outcomes(edited, tests, timeout)?;
    let mut flips = Vec::new();
    for outcome in after {
        let Some(before) = baseline.iter().find(|b| b.id == outcome.id) else {
            continue;
        };
        if before.passed != outcome.passed || before.actual() != outcome.actual() {
            let label = if outcome.name.is_empty() {
                outcome.id.clone()
            } else {
                outcome.name.clone()
            };
            flips.push(TestFlip {
                test_id: outcome.id.clone(),
                label,
                expected: outcome.expected,
                before: before.actual(),
                after: outcome.actual(),
                passed_before: before.passed,
                passes_after: outcome.passed,
            });
        }
    }
    Ok(flips)
}
