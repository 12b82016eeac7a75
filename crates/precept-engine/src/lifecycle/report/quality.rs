//! The report's quality figures as plain data: the lint rows, the test
//! results, the rule coverage and the mutation score, each stamped with
//! when it was computed. Plain data so that `figures_cache.rs` can keep a
//! figure between runs and the report can show it again without asking
//! the solver, as long as nothing it depends on changed.

use crate::lint::{Diagnostic, Severity};
use crate::model::finding::FindingKind;
use crate::test_runner::TestOutcome;
use crate::testgen::coverage::CoverageReport;
use crate::testgen::mutation::MutationReport;
use serde::{Deserialize, Serialize};

/// One lint finding as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LintRow {
    /// The stable code, e.g. `L201`.
    pub code: String,
    /// The check's name, e.g. `conflicting-rules`.
    pub name: String,
    pub severity: Severity,
    pub rules: Vec<String>,
    pub message: String,
}

impl From<&Diagnostic> for LintRow {
    fn from(d: &Diagnostic) -> LintRow {
        LintRow {
            code: d.code.code().to_string(),
            name: d.name.to_string(),
            severity: d.severity,
            rules: d.rules.clone(),
            message: d.message.clone(),
        }
    }
}

/// One logic test's result as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRow {
    pub id: String,
    pub name: String,
    pub expected: FindingKind,
    /// The finding proved now; None when the test could not run.
    pub actual: Option<FindingKind>,
    /// Why the test could not run.
    pub error: Option<String>,
    pub passed: bool,
}

impl From<&TestOutcome> for TestRow {
    fn from(o: &TestOutcome) -> TestRow {
        TestRow {
            id: o.id.clone(),
            name: o.name.clone(),
            expected: o.expected,
            actual: o.actual(),
            error: o.error.clone(),
            passed: o.passed,
        }
    }
}

/// The mutation score as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MutationSummary {
    /// The one line the CLI, the status line and the Coverage pane show.
    pub summary: String,
    pub evaluated: usize,
    pub generated: usize,
    pub sampled: bool,
}

impl From<&MutationReport> for MutationSummary {
    fn from(m: &MutationReport) -> MutationSummary {
        MutationSummary {
            summary: m.summary.clone(),
            evaluated: m.evaluated,
            generated: m.generated,
            sampled: m.sampled,
        }
    }
}

/// A figure with the time it was computed (RFC 3339, UTC) and whether this
/// run computed it or took it from an earlier run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamped<T> {
    pub computed: String,
    #[serde(skip)]
    pub reused: bool,
    pub value: T,
}

impl<T> Stamped<T> {
    pub fn fresh(computed: String, value: T) -> Stamped<T> {
        Stamped {
            computed,
            reused: false,
            value,
        }
    }

    /// How the report credits the figure: "computed 2026-…" or "computed
    /// 2026-… by an earlier run; the model and tests have not changed since".
    pub fn provenance(&self) -> String {
        if self.reused {
            format!(
                "computed {} by an earlier run; nothing it depends on has changed since",
                self.computed
            )
        } else {
            format!("computed {}", self.computed)
        }
    }
}

/// Everything the report shows about the model's quality.
#[derive(Debug, Clone, PartialEq)]
pub struct Quality {
    pub lint: Stamped<Vec<LintRow>>,
    pub tests: Stamped<Vec<TestRow>>,
    pub coverage: Stamped<CoverageReport>,
    /// None when the mutation score was not asked for.
    pub mutation: Option<Stamped<MutationSummary>>,
    /// What the report's budget left undone, one line per figure (empty
    /// when every figure is complete); the figures themselves say so too.
    pub cut_short: Vec<String>,
}
