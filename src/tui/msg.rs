//! Messages into `update` and effects out of it: plain data, so a test can
//! `assert_eq!` what `update` returned.

use crate::core::model::drafts::Drafts;
use crate::core::model::{CompiledModel, LogicTest, PolicyModel, TestSuite};
use crate::core::smt::Expr;
use crate::core::solve::Finding;
use crate::core::test_runner::TestOutcome;
use crossterm::event::{KeyEvent, MouseEvent};

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// About ten times a second: spinners and the draft autosave.
    Tick,
    /// One test of run `generation` finished.
    TestFinished {
        generation: u64,
        outcome: Box<TestOutcome>,
    },
    /// The consistency probe of run `generation`.
    ConsistencyChecked {
        generation: u64,
        consistent: bool,
    },
    VerifyFinished {
        ticket: u64,
        finding: Box<Finding>,
    },
    IoFailed {
        error: String,
    },
    /// The coverage and mutation results of run `generation`.
    CoverageDone {
        generation: u64,
        coverage: Box<crate::core::testgen::coverage::CoverageReport>,
        mutation: Box<crate::core::testgen::mutation::MutationReport>,
    },
    /// Progress or a result of lint run `generation`.
    Lint {
        generation: u64,
        event: crate::core::solve::lint_checks::LintEvent,
    },
}

/// A test to run, already checked against the model.
#[derive(Debug, Clone, PartialEq)]
pub struct TestJob {
    pub test: LogicTest,
    /// The elaborated premise and claim, or why they do not check.
    pub formulas: Result<(Expr, Expr), String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    SaveModel(Box<PolicyModel>),
    SaveTests(Box<TestSuite>),
    SaveDrafts(Drafts),
    /// Load a whole model into the solver (at start, and after type changes).
    LoadSolver(Box<CompiledModel>),
    /// Swap one rule's guarded assertion (None removes it).
    ReplaceRule {
        id: String,
        formula: Option<Expr>,
    },
    /// Run these tests as run `generation`, replacing any older run. With
    /// `probe_consistency`, also check whether the policy alone is consistent.
    RunTests {
        generation: u64,
        jobs: Vec<TestJob>,
        probe_consistency: bool,
    },
    Verify {
        ticket: u64,
        premise: Expr,
        claim: Expr,
    },
    /// Run the solver-backed lint checks as run `generation` (replacing an older one).
    Lint {
        generation: u64,
        model: Box<CompiledModel>,
    },
    /// Measure rule coverage and the mutation score (on a solver of its own).
    Coverage {
        generation: u64,
        model: Box<CompiledModel>,
        tests: Vec<LogicTest>,
    },
    SaveThemeChoice(String),
    Quit,
}
