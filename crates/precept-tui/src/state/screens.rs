//! The state each screen keeps of its own: the verify screen's inputs and
//! results (premise and claim, or question and answer), and the vetting
//! screen's lint rows, test generation, coverage and mutation score.

use crate::state::list_cursor::ListCursor;
use precept_engine::solve::Finding;
use precept_engine::workspace::JobId;
use ratatui_textarea::TextArea;

/// What the verify screen asks: a premise and claim in logic, or a
/// question and answer in words (checked through the answer verifier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerifyMode {
    #[default]
    Logic,
    Answer,
    /// Facts set one by one, their consequences shown live.
    Consultant,
}

/// A question and answer being checked, and what came back.
pub struct AnswerPane {
    pub question: TextArea<'static>,
    pub answer: TextArea<'static>,
    /// 0: question, 1: answer.
    pub field: usize,
    pub job: JobId,
    pub running: bool,
    /// The translations asked for, and those arrived so far.
    pub asked: usize,
    pub translations: Vec<precept_engine::answer::Translation>,
    /// Solving `n` distinct pairs, once every translation is in.
    pub solving: Option<usize>,
    pub report: Option<Box<precept_engine::answer::AnswerReport>>,
    pub error: Option<String>,
    /// The model the check (running or done) translated and solved against.
    pub basis: crate::state::freshness::Basis,
}

impl Default for AnswerPane {
    fn default() -> Self {
        let mut question = TextArea::default();
        question.set_placeholder_text("the question (may stay empty for a plain statement)");
        let mut answer = TextArea::default();
        answer.set_placeholder_text("the answer to check against the policy");
        AnswerPane {
            question,
            answer,
            field: 0,
            job: JobId::default(),
            running: false,
            asked: 0,
            translations: Vec::new(),
            solving: None,
            report: None,
            error: None,
            basis: Default::default(),
        }
    }
}

/// The verify screen.
pub struct VerifyPane {
    pub mode: VerifyMode,
    pub qa: AnswerPane,
    pub premise: TextArea<'static>,
    pub claim: TextArea<'static>,
    /// 0: premise, 1: claim.
    pub field: usize,
    pub error: Option<String>,
    pub finding: Option<Finding>,
    pub job: JobId,
    pub running: bool,
    /// The premise and claim last asked (as typed), asked again after an
    /// edit so that the finding on screen describes the model on screen.
    pub asked: Option<(String, String)>,
    /// The edit (or undo) after which the question was asked again.
    pub asked_again_after: Option<String>,
    /// The model's revision the question was last asked on (a change to
    /// the tests alone asks nothing again).
    pub asked_on: u64,
    /// The strict reading (nothing assumed) instead of the default one.
    pub strict: bool,
    pub consultant: crate::state::consultant::Consultant,
    /// The question whose claim follows from its premise alone, warned
    /// about at the first ctrl-s: a second ctrl-s saves it anyway.
    pub warned_trivial: Option<(String, String)>,
}

impl Default for VerifyPane {
    fn default() -> Self {
        let mut premise = TextArea::default();
        premise.set_placeholder_text("premise in SMT-LIB (empty: no facts)");
        let mut claim = TextArea::default();
        claim.set_placeholder_text("claim in SMT-LIB");
        VerifyPane {
            mode: VerifyMode::Logic,
            qa: AnswerPane::default(),
            premise,
            claim,
            field: 0,
            error: None,
            finding: None,
            job: JobId::default(),
            running: false,
            asked: None,
            asked_again_after: None,
            asked_on: 0,
            strict: false,
            consultant: Default::default(),
            warned_trivial: None,
        }
    }
}

/// The linter's results on the vetting screen.
#[derive(Debug, Clone, Default)]
pub struct LintState {
    pub diagnostics: Vec<precept_engine::lint::Diagnostic>,
    /// The run whose results are shown; events of older runs are dropped.
    pub job: JobId,
    pub running: bool,
    pub progress: Option<(usize, usize, &'static str)>,
    /// Whether a lint has ever run (the screen offers to start one).
    pub ran: bool,
    pub cursor: ListCursor,
    /// The model the diagnostics describe, and the edit that made them stale.
    pub basis: crate::state::freshness::Basis,
    /// The diagnostics grouped and ranked, notes folded: the rows shown.
    pub triage: precept_engine::lint::triage::Triage,
    /// Whether the notes are shown rather than folded away (`f`).
    pub show_notes: bool,
    /// The rule chosen among the selected row's rules.
    pub rule_cursor: ListCursor,
    /// The graph components each test reaches (for ranking rows), and the
    /// revision of the model and tests they were worked out for.
    pub test_reach: (
        Option<precept_engine::workspace::Revision>,
        Vec<std::collections::BTreeSet<usize>>,
    ),
    /// Whether the run's end is announced in the status line: yes when the
    /// expert asked for it (`L`), no when an edit started it (the edit's own
    /// news, such as the tests it flipped, stays in view).
    pub announce: bool,
    /// Diagnostics have arrived since the rows were last worked out: they
    /// are triaged at the run's next progress or its end, not one by one
    /// (on 1,500 findings, one by one took 40 s).
    pub untriaged: bool,
    /// An edit's lint run: its syntactic checks are still being redone in
    /// the background (the last model's are shown meanwhile). The run is
    /// over when they are in and the solver checks have finished.
    pub syntactic_pending: bool,
    /// The solver checks of the run have finished (with this many checks
    /// not decided in time).
    pub solver_finished: Option<usize>,
    /// A lint run's solver checks have finished since the project was
    /// opened: the scheduler keeps what that run found (each group's
    /// findings, a large group's answers), so a lint after an edit asks
    /// again only what the edit may have changed.
    pub finished_once: bool,
    /// Each rule's expression when the syntactic diagnostics shown were
    /// found: while an edit's are redone, those naming a rule that has
    /// changed since (or gone) are not shown.
    pub syntactic_of: std::collections::HashMap<String, String>,
}

impl LintState {
    /// The row under the cursor.
    pub fn selected_group(&self) -> Option<&precept_engine::lint::triage::DiagnosticGroup> {
        self.triage.groups.get(self.cursor.selected)
    }

    /// The diagnostics of the row under the cursor.
    pub fn selected_members(&self) -> Vec<&precept_engine::lint::Diagnostic> {
        self.selected_group()
            .map(|g| g.members.iter().map(|&i| &self.diagnostics[i]).collect())
            .unwrap_or_default()
    }

    /// Rows of the list: the groups, and a last row counting folded notes.
    pub fn row_count(&self) -> usize {
        self.triage.groups.len() + usize::from(self.triage.folded_notes > 0)
    }
}

/// Test generation in the background.
#[derive(Debug, Clone, Default)]
pub struct GenerationState {
    pub job: JobId,
    pub running: bool,
}

/// Rule coverage and mutation score, computed in the background.
#[derive(Debug, Clone, Default)]
pub struct CoverageState {
    pub job: JobId,
    pub running: bool,
    pub coverage: Option<precept_engine::testgen::coverage::CoverageReport>,
    pub mutation: Option<precept_engine::testgen::mutation::MutationReport>,
    /// The model and tests the figures describe, and the edit that made them stale.
    pub basis: crate::state::freshness::Basis,
}
