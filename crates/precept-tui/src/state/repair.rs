//! A repair from feedback in progress: the expert's words, the LLM's
//! checked edits with the tests each flips, and the expert's decisions.

use precept_engine::repair::RepairProposal;
use precept_engine::test_runner::flips::TestFlip;
use precept_engine::workspace::JobId;
use ratatui_textarea::TextArea;

/// What the next repair from feedback starts from.
#[derive(Debug, Default)]
pub struct RepairDraft {
    /// Rules marked with space, for a repair from feedback about several
    /// rules.
    pub marked: std::collections::BTreeSet<String>,
    /// The expert's last feedback for a repair that did not come back with
    /// edits (no LLM, an error, or closed): offered again on the next `w`.
    pub feedback: String,
}

/// A repair from feedback, from the expert's words to the decisions.
pub struct RepairState {
    /// The rules the feedback is about.
    pub rules: Vec<String>,
    pub feedback: TextArea<'static>,
    pub job: JobId,
    pub stage: RepairStage,
}

pub enum RepairStage {
    Writing,
    Asking,
    Proposed(Box<Proposed>),
    Failed(String),
}

/// The LLM's checked edits, their effect on the tests, and the expert's
/// decision on each.
pub struct Proposed {
    pub proposal: RepairProposal,
    /// Per edit: the flips (None while the solver works on them).
    pub flips: Vec<Option<Result<Vec<TestFlip>, crate::state::job_error::JobError>>>,
    pub decisions: Vec<Option<bool>>,
    pub cursor: usize,
}
