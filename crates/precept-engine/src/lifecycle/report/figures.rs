//! Everything the report shows besides the project's own files, computed
//! with the core's one definition of each figure: lint (syntactic and
//! solver checks), the test outcomes, rule coverage, the mutation score,
//! the versions and their sign-offs checked against the files, and the
//! semantic diff against the previous version.

use super::figures_cache::{FigureKind, FiguresCache};
use super::quality::{LintRow, MutationSummary, Quality, Stamped, TestRow};
use super::sections;
use crate::lifecycle::LifecycleError;
use crate::lifecycle::clock::now_utc;
use crate::lifecycle::diff::{Side, diff};
use crate::lifecycle::reference::ModelRef;
use crate::lifecycle::signoff::{Checked, verify};
use crate::lifecycle::versions::{
    DraftState, VersionManifest, draft_state, read_manifest, version_numbers,
};
use crate::lint::full::full_lint_within;
use crate::model::{CompiledModel, Project};
use crate::scheduler::Scheduler;
use crate::test_runner::{TestOutcome, run_tests_pooled};
use crate::testgen::coverage::rule_coverage_within;
use crate::testgen::equivalence_cache::EquivalenceCache;
use crate::testgen::mutation::{mutants, spread};
use crate::testgen::mutation_pool::mutation_score_within;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
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
#[derive(Debug)]
pub struct Figures {
    /// When the report was made (RFC 3339, UTC).
    pub generated: String,
    /// Lint, test results, coverage and the mutation score.
    pub quality: Quality,
    /// The JSON of `precept probe --json`, when one was given.
    pub probe: Option<serde_json::Value>,
    pub history: History,
}

/// The project's versions, the draft, the sign-offs checked and the diff
/// against the previous version.
#[derive(Debug)]
pub struct History {
    pub versions: Vec<VersionManifest>,
    pub draft: Option<DraftState>,
    /// The sign-offs checked against the files now, or why they could not be.
    pub signoffs: Result<Vec<Checked>, LifecycleError>,
    /// The diff against the previous version as the report shows it, or
    /// why there is none.
    pub diff: Result<Stamped<ShownDiff>, NoDiff>,
}

/// Why the report shows no diff against the previous version.
#[derive(Debug, thiserror::Error)]
pub enum NoDiff {
    #[error("there is no previous version to compare with")]
    NoPreviousVersion,
    /// The report's budget ran out before the diff was started.
    #[error(
        "The diff against the previous version was not computed: the report's budget ran out before it (skipped, not passed). `precept diff`, or a report with a larger --budget-s, computes it."
    )]
    OverBudget,
    /// A side of the diff could not be loaded.
    #[error(transparent)]
    Side(#[from] LifecycleError),
}

/// The semantic diff as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShownDiff {
    /// How the two models relate (`Equivalent`, `AStronger`, …).
    pub relation: String,
    /// The diff's section of the report.
    pub html: String,
}

/// Where the quality figures come from: a pool to compute them on, started
/// only when a figure is not in `cache` (or `cache` is None: compute all).
/// `E` is why the pool could not start, as the caller has it.
pub struct QualitySource<'a, E> {
    /// Starts the solver pool, every worker with the model loaded.
    pub start_pool: &'a dyn Fn() -> Result<Scheduler, E>,
    pub cache: Option<&'a FiguresCache>,
    /// The solver deadline per question the figures are computed with.
    pub timeout_ms: u64,
    /// When the report's wall-clock budget ends, if it has one: the lint
    /// and the mutation score stop cleanly then, say what they left, and
    /// are not kept as figures.
    pub deadline: Option<std::time::Instant>,
}

/// Lint, tests, coverage and mutation: each taken from `source.cache` when
/// it holds that figure for exactly this model, tests and settings, else
/// computed on the pool (started once, on first need) and filed there.
/// `progress` hears each stage by name. Fails only when the pool, needed,
/// does not start.
pub fn quality<E>(
    project: &Project,
    compiled: &CompiledModel,
    source: &QualitySource<'_, E>,
    mutation: MutationChoice,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Quality, E> {
    let started = std::cell::OnceCell::new();
    let pool = || -> Result<&Scheduler, E> {
        if let Some(pool) = started.get() {
            return Ok(pool);
        }
        progress("starting the solver workers");
        let pool = (source.start_pool)()?;
        Ok(started.get_or_init(|| pool))
    };
    // The tests that count, as `precept test` runs them (proposed ones wait
    // for review).
    let counting: Vec<_> = project
        .tests
        .tests
        .iter()
        .filter(|t| t.status.counts())
        .cloned()
        .collect();
    let tests = &project.tests.tests;
    let partial = std::cell::Cell::new(false);
    let cut_short = std::cell::RefCell::new(Vec::new());
    let left = |deadline: std::time::Instant| {
        deadline.saturating_duration_since(std::time::Instant::now())
    };
    let lint = figure(
        project,
        source,
        FigureKind::Lint,
        progress,
        &pool,
        &partial,
        |pool| {
            let run = full_lint_within(
                &project.model,
                compiled,
                Some(pool.workers()),
                source.deadline.map(left),
                &|_, _, _| {},
            );
            if !run.unchecked.is_empty() {
                partial.set(true);
                let list: Vec<String> = run
                    .unchecked
                    .iter()
                    .map(|u| format!("{} on {} rule(s)", u.check, u.rules))
                    .collect();
                cut_short
                    .borrow_mut()
                    .push(format!("lint: {} not checked", list.join("; ")));
            }
            Ok(run.diagnostics.iter().map(LintRow::from).collect())
        },
    )?;

    // A test run made here lends its proved findings to the coverage.
    let fresh_outcomes: std::cell::RefCell<Option<Vec<TestOutcome>>> = Default::default();
    let test_rows = figure(
        project,
        source,
        FigureKind::Tests,
        progress,
        &pool,
        &partial,
        |pool| {
            let outcomes = run_tests_pooled(pool.workers(), compiled, &counting);
            let rows = outcomes.iter().map(TestRow::from).collect();
            fresh_outcomes.replace(Some(outcomes));
            Ok(rows)
        },
    )?;
    let coverage = figure(
        project,
        source,
        FigureKind::Coverage,
        progress,
        &pool,
        &partial,
        |pool| {
            let outcomes = fresh_outcomes.borrow();
            let report = rule_coverage_within(
                pool.workers(),
                compiled,
                &counting,
                outcomes.as_deref().unwrap_or_default(),
                source.deadline,
            );
            if !report.over_budget.is_empty() {
                partial.set(true);
                cut_short.borrow_mut().push(format!(
                    "rule coverage: {} of {} tests not evaluated",
                    report.over_budget.len(),
                    report.tests_used.len()
                ));
            }
            Ok(report)
        },
    )?;
    let sample = match mutation {
        MutationChoice::Skip => None,
        MutationChoice::All => Some(None),
        MutationChoice::Sample(n) => Some(Some(n)),
    };
    let mutation = match sample {
        None => None,
        Some(limit) => Some(figure(
            project,
            source,
            FigureKind::Mutation(limit),
            progress,
            &pool,
            &partial,
            |pool| {
                let all = mutants(compiled);
                let generated = all.len();
                let chosen = match limit {
                    Some(n) => spread(all, n),
                    None => all,
                };
                let equivalents = EquivalenceCache::of_project(&project.dir);
                let report = mutation_score_within(
                    pool.workers(),
                    compiled,
                    tests,
                    chosen,
                    generated,
                    &|_| {},
                    &equivalents,
                    source.deadline,
                    fresh_outcomes.borrow().as_deref(),
                );
                let _ = equivalents.save();
                if report.over_budget > 0 {
                    partial.set(true);
                    cut_short.borrow_mut().push(format!(
                        "mutation score: {} of {} mutants not evaluated",
                        report.over_budget,
                        report.evaluated + report.over_budget
                    ));
                }
                Ok(MutationSummary::from(&report))
            },
        )?),
    };
    Ok(Quality {
        lint,
        tests: test_rows,
        coverage,
        mutation,
        cut_short: cut_short.into_inner(),
    })
}

/// One figure: from the cache when it is there, else computed and filed.
fn figure<'p, T: Serialize + DeserializeOwned, E>(
    project: &Project,
    source: &QualitySource<'_, E>,
    kind: FigureKind,
    progress: &(dyn Fn(&str) + Sync),
    pool: &dyn Fn() -> Result<&'p Scheduler, E>,
    partial: &std::cell::Cell<bool>,
    compute: impl FnOnce(&Scheduler) -> Result<T, E>,
) -> Result<Stamped<T>, E> {
    let key = FiguresCache::key(project, source.timeout_ms, kind);
    if let Some(cache) = source.cache
        && let Some(found) = cache.load::<T>(&key)
    {
        progress(&format!(
            "{}: reused, computed {} (nothing it depends on has changed since)",
            kind.name(),
            found.computed
        ));
        return Ok(found);
    }
    let pool = pool()?;
    progress(kind.name());
    let stamped = Stamped::fresh(now_utc(), compute(pool)?);
    // A figure the budget cut short is shown, never kept.
    if partial.replace(false) {
        return Ok(stamped);
    }
    if let Some(cache) = source.cache
        && let Err(why) = cache.store(&key, &stamped)
    {
        progress(&format!(
            "warning: {} not kept for next time: {why}",
            kind.name()
        ));
    }
    Ok(stamped)
}

/// The project's versions, where the draft stands, the sign-offs checked,
/// and the diff against the previous version: the newest version against
/// the draft when the draft has changed since, else the newest version
/// against the one before it. The diff, as the report shows it, is taken
/// from `cache` when both sides are unchanged since it was filed.
/// A diff not in `cache` is not started once `deadline` (the report's
/// budget) has passed: it is then `NoDiff::OverBudget`.
pub fn history(
    dir: &Path,
    cache: Option<&FiguresCache>,
    timeout_ms: u64,
    deadline: Option<std::time::Instant>,
) -> History {
    let numbers = version_numbers(dir).unwrap_or_default();
    let versions = numbers
        .iter()
        .filter_map(|&n| read_manifest(dir, n).ok())
        .collect();
    let draft = draft_state(dir).ok();
    let signoffs = verify(dir);
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
        None => Err(NoDiff::NoPreviousVersion),
        Some((a, b)) => {
            let side = |version| {
                Side::load(&ModelRef {
                    project: dir.to_path_buf(),
                    version,
                })
                .map_err(NoDiff::Side)
            };
            side(a).and_then(|a| {
                side(b).and_then(|b| diff_shown(dir, (&a, &b), cache, timeout_ms, deadline))
            })
        }
    };
    History {
        versions,
        draft,
        signoffs,
        diff,
    }
}

/// The diff of `a` and `b` as the report shows it, reused, or computed
/// when `deadline` has not passed.
fn diff_shown(
    dir: &Path,
    (a, b): (&Side, &Side),
    cache: Option<&FiguresCache>,
    timeout_ms: u64,
    deadline: Option<std::time::Instant>,
) -> Result<Stamped<ShownDiff>, NoDiff> {
    let translations = translation_listing(dir);
    let key = FiguresCache::key_of(
        "diff",
        &[
            a.label.as_bytes(),
            b.label.as_bytes(),
            &side_bytes(a),
            &side_bytes(b),
            &timeout_ms.to_le_bytes(),
            translations.as_bytes(),
        ],
    );
    if let Some(found) = cache.and_then(|c| c.load::<ShownDiff>(&key)) {
        return Ok(found);
    }
    if deadline.is_some_and(|end| std::time::Instant::now() >= end) {
        return Err(NoDiff::OverBudget);
    }
    let computed = diff(a, b);
    let shown = Stamped::fresh(
        now_utc(),
        ShownDiff {
            relation: format!("{:?}", computed.relation),
            html: sections::diff(&computed),
        },
    );
    if let Some(cache) = cache {
        let _ = cache.store(&key, &shown);
    }
    Ok(shown)
}

/// One side's model, tests and settings, as the diff depends on them.
fn side_bytes(side: &Side) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&side.project.model).unwrap_or_default();
    bytes.extend(serde_json::to_vec(&side.project.tests).unwrap_or_default());
    bytes.extend(serde_json::to_vec(&side.project.settings).unwrap_or_default());
    bytes
}

/// The names and sizes of the stored LLM translations (the diff re-decides
/// natural-language tests from them).
fn translation_listing(dir: &Path) -> String {
    let folder = dir
        .join(crate::model::project::CACHE_DIR)
        .join("translations");
    let mut lines: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| {
                    let size = e.metadata().map_or(0, |m| m.len());
                    format!("{} {size}", e.file_name().to_string_lossy())
                })
                .collect()
        })
        .unwrap_or_default();
    lines.sort();
    lines.join("\n")
}
