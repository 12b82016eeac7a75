//! The Formalize screen's state: a formalization run with each span's
//! progress, and its record's spans, clusters and proposals.

use crate::state::list_cursor::ListCursor;
use precept_engine::compose::record::FormalizationRecord;
use precept_engine::compose::unify::ClusterRecord;
use precept_engine::formalize::span_runs::SpanCounts;
use precept_engine::workspace::JobId;

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
    pub job: JobId,
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
    pub job: JobId,
    pub span_cursor: ListCursor,
    pub cluster_cursor: ListCursor,
    /// Set by a first `F` on a model that has rules; a second `F` replaces them.
    pub confirm_replace: bool,
    /// The proposal with warnings whose `y` was asked to be repeated.
    pub confirm_proposal: Option<String>,
    /// Why the last formalization gave no model (shown in full on the screen).
    pub error: Option<String>,
    /// Consolidation proposals, checked against the model (`c`).
    pub proposals: Vec<precept_engine::compose::consolidate_check::CheckedProposal>,
    /// The newest consolidation request, and whether it is still running.
    pub consolidation_job: JobId,
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
