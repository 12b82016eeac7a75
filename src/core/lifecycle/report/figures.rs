//! Everything the report shows besides the project's own files, computed
//! with the core's one definition of each figure: lint (syntactic and
//! solver checks), the test outcomes, rule coverage, the mutation score,
//! the versions and their sign-offs checked against the files, and the
//! semantic diff against the previous version.

use crate::core::lifecycle::diff::{ModelDiff, Side, diff};
use crate::core::lifecycle::reference::ModelRef;
use crate::core::lifecycle::signoff::{Checked, verify};
use crate::core::lifecycle::versions::{
    DraftState, VersionManifest, draft_state, read_manifest, version_numbers,
};
use crate::core::lint::{Diagnostic, syntactic};
use crate::core::model::{CompiledModel, Project};
use crate::core::solve::SolverPool;
use crate::core::solve::lint_checks::LintEvent;
use crate::core::test_runner::{TestOutcome, run_tests};
use crate::core::testgen::coverage::{CoverageReport, rule_coverage_with_outcomes};
use crate::core::testgen::mutation::{MutationReport, mutants, spread};
use crate::core::testgen::mutation_pool::mutation_score_pooled;
use std::path::Path;

/// Which mutants the report's mutation score is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MutationChoice {
    /// No mutation score.
    Skip,
    /// Every mutant.
    All,
    /// At most this many, spread over the model.
    Sample(usize),
}

/// What the report shows beyond the project's files.
#[derive(Debug, Clone)]
pub struct Figures {
    /// When the report was made (RFC 3339, UTC).
    pub generated: String,
    /// Lint diagnostics, syntactic and solver-backed.
    pub diagnostics: Vec<Diagnostic>,
    pub outcomes: Vec<TestOutcome>,
    pub coverage: CoverageReport,
    pub mutation: Option<MutationReport>,
    /// The JSON of `precept probe --json`, when one was given.
    pub probe: Option<serde_json::Value>,
    pub history: History,
}

/// The project's versions, the draft, the sign-offs checked and the diff
/// against the previous version.
#[derive(Debug, Clone)]
pub struct History {
    pub versions: Vec<VersionManifest>,
    pub draft: Option<DraftState>,
    /// The sign-offs checked against the files now, or why they could not be.
    pub signoffs: Result<Vec<Checked>, String>,
    /// The diff against the previous version, or why there is none.
    pub diff: Result<ModelDiff, String>,
}

/// Lint, tests, coverage and mutation on `pool` (every worker with
/// `compiled` loaded). `progress` hears each stage by name.
pub fn quality(
    project: &Project,
    compiled: &CompiledModel,
    pool: &SolverPool,
    mutation: MutationChoice,
    progress: &(dyn Fn(&str) + Sync),
) -> (
    Vec<Diagnostic>,
    Vec<TestOutcome>,
    CoverageReport,
    Option<MutationReport>,
) {
    let worker = &pool.workers()[0];
    progress("lint");
    let mut diagnostics = syntactic::check(&project.model, compiled);
    let (events, received) = std::sync::mpsc::channel();
    worker.lint(compiled.clone(), events);
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => diagnostics.push(*d),
            LintEvent::Finished { .. } => break,
            LintEvent::Progress { .. } => {}
        }
    }
    diagnostics.sort_by_key(|d| (d.severity, d.code));
    progress("tests");
    let outcomes = run_tests(worker, compiled, &project.tests.tests);
    progress("coverage");
    let coverage = rule_coverage_with_outcomes(pool, compiled, &project.tests.tests, &outcomes);
    let mutation = match mutation {
        MutationChoice::Skip => None,
        choice => {
            progress("mutation");
            let all = mutants(compiled);
            let generated = all.len();
            let chosen = match choice {
                MutationChoice::Sample(limit) => spread(all, limit),
                _ => all,
            };
            Some(mutation_score_pooled(
                pool,
                compiled,
                &project.tests.tests,
                chosen,
                generated,
                &|_| {},
            ))
        }
    };
    (diagnostics, outcomes, coverage, mutation)
}

/// The project's versions, where the draft stands, the sign-offs checked,
/// and the diff against the previous version: the newest version against
/// the draft when the draft has changed since, else the newest version
/// against the one before it.
pub fn history(dir: &Path) -> History {
    let numbers = version_numbers(dir).unwrap_or_default();
    let versions = numbers
        .iter()
        .filter_map(|&n| read_manifest(dir, n).ok())
        .collect();
    let draft = draft_state(dir).ok();
    let signoffs = verify(dir).map_err(|e| e.to_string());
    let pair = match (numbers.last(), &draft) {
        (None, _) => None,
        (Some(&newest), Some(state)) if !state.changed.is_empty() => Some((Some(newest), None)),
        (Some(&newest), _) => numbers
            .iter()
            .rev()
            .nth(1)
            .map(|&previous| (Some(previous), Some(newest))),
    };
    let diff = match pair {
        None => Err("there is no previous version to compare with".to_string()),
        Some((a, b)) => {
            let side = |version| {
                Side::load(&ModelRef {
                    project: dir.to_path_buf(),
                    version,
                })
                .map_err(|e| e.to_string())
            };
            side(a).and_then(|a| side(b).map(|b| diff(&a, &b)))
        }
    };
    History {
        versions,
        draft,
        signoffs,
        diff,
    }
}
