//! The test results of an open project and the bookkeeping of the run
//! that produces them: which run is current, what is still pending, what
//! each test was before the run, and which edit last changed a finding.

use crate::solve::FindingKind;
use crate::test_runner::TestOutcome;
use std::collections::HashMap;

/// The state of one test in the current results.
#[derive(Debug, Clone, PartialEq)]
pub enum TestState {
    NotRun,
    Running,
    Done(Box<TestOutcome>),
}

impl TestState {
    pub fn passed(&self) -> Option<bool> {
        match self {
            TestState::Done(outcome) => Some(outcome.passed),
            _ => None,
        }
    }
}

/// A test whose result changed in the last run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flip {
    pub test_id: String,
    pub now_passes: bool,
}

/// The last change of a test's finding: which edit's rerun changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingChange {
    /// The edit, undo or redo whose rerun changed it (e.g. "edit rule R4").
    pub edit: String,
    pub from: FindingKind,
    pub to: FindingKind,
}

/// The results and the current run.
#[derive(Debug, Clone, Default)]
pub struct Runs {
    pub results: HashMap<String, TestState>,
    pub flips: Vec<Flip>,
    /// The run whose results are current; older runs' results are dropped.
    pub job: super::JobId,
    pub pending: usize,
    /// Tests being rerun in the current run (for the flip summary).
    pub run_size: usize,
    pub run_was_partial: bool,
    /// Tests of an edit's cone that kept their findings without the solver
    /// (`carry_over.rs`), beside the `run_size` the partial run asks again.
    pub run_kept: usize,
    /// Pass/fail of each test before the current run (for flips).
    pub previous_pass: HashMap<String, Option<bool>>,
    /// The finding of each test before the current run.
    pub previous_finding: HashMap<String, FindingKind>,
    /// The edit that started the current run (None: a rerun of everything
    /// that no edit asked for, such as opening the project or `r`).
    pub run_cause: Option<String>,
    /// Per test: the edit that last changed its finding.
    pub finding_changes: HashMap<String, FindingChange>,
    /// Said before the current run's result when it finishes (e.g. which
    /// test was just saved).
    pub run_note: Option<String>,
}

impl Runs {
    /// The state of test `id` (not run when unknown).
    pub fn test_state(&self, id: &str) -> &TestState {
        self.results.get(id).unwrap_or(&TestState::NotRun)
    }
}
