//! State of the LLM-assisted work in the workbench: a formalization run and
//! its record (spans, clusters), and a repair from feedback in progress.

use crate::core::compose::record::FormalizationRecord;
use crate::core::compose::unify::ClusterRecord;
use crate::core::formalize::span_runs::SpanCounts;
use crate::core::repair::RepairProposal;
use crate::core::test_runner::flips::TestFlip;
use crate::tui::state::list_cursor::ListCursor;
use ratatui_textarea::TextArea;

/// Where one span of a running formalization stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanProgress {
    Waiting,
    /// Asked; `round` > 1 while repairing.
    Asking {
        round: u32,
    },
    Done(SpanCounts),
}

/// A formalization running in the background.
#[derive(Debug, Clone, PartialEq)]
pub struct FormalizeRun {
    pub generation: u64,
    /// Span ids and the first words of each span.
    pub spans: Vec<(String, String)>,
    pub progress: Vec<SpanProgress>,
}

impl FormalizeRun {
    /// (finished, failed, variables, rules) so far.
    pub fn totals(&self) -> (usize, usize, usize, usize) {
        let mut totals = (0, 0, 0, 0);
        for p in &self.progress {
            if let SpanProgress::Done(counts) = p {
                totals.0 += 1;
                totals.1 += usize::from(counts.failed);
                totals.2 += counts.variables;
                totals.3 += counts.rules;
            }
        }
        totals
    }
}

/// The formalize screen.
#[derive(Debug, Clone, Default)]
pub struct FormalizeState {
    /// `formalization.json`, when the project has one.
    pub record: Option<FormalizationRecord>,
    pub run: Option<FormalizeRun>,
    pub generation: u64,
    pub span_cursor: ListCursor,
    pub cluster_cursor: ListCursor,
    /// Set by a first `F` on a model that has rules; a second `F` replaces them.
    pub confirm_replace: bool,
    /// Why the last formalization gave no model (shown in full on the screen).
    pub error: Option<String>,
    /// Consolidation proposals, checked against the model (`c`).
    pub proposals: Vec<crate::core::compose::consolidate_check::CheckedProposal>,
    /// The newest consolidation request, and whether it is still running.
    pub consolidation_ticket: u64,
    pub consolidating: bool,
}

/// One row of the clusters list: a cluster, or one of its unit variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterRow {
    /// A consolidation proposal (listed first).
    Proposal(usize),
    Cluster(usize),
    Member(usize, usize),
}

/// The rows of the clusters list: the consolidation proposals, then each
/// cluster, then its members when it has more than one.
pub fn cluster_rows(clusters: &[ClusterRecord], proposals: usize) -> Vec<ClusterRow> {
    let mut rows: Vec<ClusterRow> = (0..proposals).map(ClusterRow::Proposal).collect();
    for (i, cluster) in clusters.iter().enumerate() {
        rows.push(ClusterRow::Cluster(i));
        if cluster.members.len() > 1 {
            rows.extend((0..cluster.members.len()).map(|m| ClusterRow::Member(i, m)));
        }
    }
    rows
}

/// A repair from feedback, from the expert's words to the decisions.
pub struct RepairState {
    /// The rules the feedback is about.
    pub rules: Vec<String>,
    pub feedback: TextArea<'static>,
    pub ticket: u64,
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
    pub flips: Vec<Option<Result<Vec<TestFlip>, String>>>,
    pub decisions: Vec<Option<bool>>,
    pub cursor: usize,
}

/// A one-line text prompt over the screen (rename, merge target).
pub struct NamePrompt {
    pub purpose: NamePurpose,
    pub input: TextArea<'static>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamePurpose {
    /// Rename the cluster's variable.
    Rename { variable: String },
    /// Merge this variable into the one typed.
    MergeInto { variable: String },
    /// Name the verify question saved as a test expecting `expected`.
    SaveTest {
        expected: crate::core::solve::FindingKind,
        natural_language: bool,
    },
}

impl NamePrompt {
    pub fn new(purpose: NamePurpose, placeholder: &str, initial: &str) -> NamePrompt {
        let mut input = TextArea::from([initial.to_string()]);
        input.set_placeholder_text(placeholder);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        NamePrompt {
            purpose,
            input,
            error: None,
        }
    }

    pub fn text(&self) -> String {
        self.input.lines().join("").trim().to_string()
    }
}

/// The natural-language tests on the tests screen: their last outcomes
/// (through the answer verifier) and the run in progress.
#[derive(Debug, Clone, Default)]
pub struct NlTestsState {
    pub outcomes: std::collections::HashMap<String, crate::core::answer::NlTestOutcome>,
    pub ticket: u64,
    pub running: bool,
    /// Tests finished and asked for in the current run.
    pub done: usize,
    pub total: usize,
    pub cursor: ListCursor,
    /// The model the outcomes were computed on (a later edit makes them stale).
    pub ran_on: Option<crate::core::model::PolicyModel>,
}
