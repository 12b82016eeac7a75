//! The natural-language (answer) tests' state on the Tests screen.

use crate::state::list_cursor::ListCursor;
use precept_engine::workspace::JobId;

/// The natural-language tests on the tests screen: their last outcomes
/// (through the answer verifier) and the run in progress.
#[derive(Debug, Clone, Default)]
pub struct AnswerTestsState {
    pub outcomes: std::collections::HashMap<String, precept_engine::answer::AnswerTestOutcome>,
    pub job: JobId,
    pub running: bool,
    /// Tests finished and asked for in the current run.
    pub done: usize,
    pub total: usize,
    pub cursor: ListCursor,
    /// The model the outcomes were computed on (a later edit makes them stale).
    pub ran_on: Option<precept_engine::model::PolicyModel>,
}
