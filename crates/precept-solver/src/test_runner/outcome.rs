//! What a logic test gave: its outcome, why it could not run, and the
//! parsing both runners (one worker, a pool) start with.

use crate::model::{CompiledModel, LogicTest};
use crate::smt::SmtError;
use crate::solve::{Finding, FindingKind};
use serde::Serialize;
use std::time::Duration;

/// The outcome of one logic test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestOutcome {
    pub id: String,
    pub name: String,
    pub expected: FindingKind,
    /// The finding, or None when the premise or claim does not parse.
    pub finding: Option<Finding>,
    /// Why the test could not run (e.g. `claim: 1:4: expected ...`).
    pub error: Option<String>,
    pub passed: bool,
    #[serde(skip)]
    pub elapsed: Duration,
}

impl TestOutcome {
    pub fn actual(&self) -> Option<FindingKind> {
        self.finding.as_ref().map(|f| f.kind)
    }
}

/// Which side of a test does not check against the model, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TestCheckError {
    #[error("premise: {0}")]
    Premise(SmtError),
    #[error("claim: {0}")]
    Claim(SmtError),
}

/// Parses and checks a test's premise and claim against the model.
pub fn check_test(
    model: &CompiledModel,
    test: &LogicTest,
) -> Result<(crate::smt::Expr, crate::smt::Expr), TestCheckError> {
    let (_, premise) = model
        .check_formula(&test.premise)
        .map_err(TestCheckError::Premise)?;
    let (_, claim) = model
        .check_formula(&test.claim)
        .map_err(TestCheckError::Claim)?;
    Ok((premise, claim))
}

/// A test's outcome from its answer: the finding and the time it took
/// (None when the solver thread stopped first), or why it could not run.
pub(crate) fn outcome_of(
    test: &LogicTest,
    answer: Result<Option<(Finding, Duration)>, TestCheckError>,
) -> TestOutcome {
    let (finding, error, elapsed) = match answer {
        Ok(Some((finding, elapsed))) => (Some(finding), None, elapsed),
        Ok(None) => (
            None,
            Some("the solver thread stopped".to_string()),
            Duration::ZERO,
        ),
        Err(error) => (None, Some(error.to_string()), Duration::ZERO),
    };
    let passed = finding.as_ref().is_some_and(|f| f.kind == test.expected);
    TestOutcome {
        id: test.id.clone(),
        name: test.name.clone(),
        expected: test.expected,
        finding,
        error,
        passed,
        elapsed,
    }
}
