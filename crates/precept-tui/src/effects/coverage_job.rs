//! The workbench's coverage run: rule coverage and the full mutation score,
//! on a scheduler of its own, with progress as it goes.

use crate::state::msg::Msg;
use precept_engine::model::LogicTest;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// Measures coverage and the full mutation score on a scheduler of its
/// own (one worker per core), reporting the mutation's progress and
/// time left as it goes, then the results. Equivalent mutants are taken
/// from and kept in the project's cache (`project_dir/.cache/`).
pub fn measure_coverage(
    stamp: precept_engine::workspace::Stamp,
    model: Box<precept_engine::model::CompiledModel>,
    tests: Vec<LogicTest>,
    timeout: Duration,
    project_dir: std::path::PathBuf,
) -> Receiver<Msg> {
    use precept_engine::testgen::equivalence_cache::EquivalenceCache;
    use precept_engine::testgen::{coverage, mutation, mutation_pool};
    let (messages, stream) = mpsc::channel();
    std::thread::spawn(move || {
        use precept_engine::scheduler::Scheduler;
        let scheduler = Scheduler::new(Scheduler::default_jobs(), timeout);
        if scheduler.load(&model).is_err() {
            let _ = messages.send(Msg::IoFailed {
                error: "coverage: the model did not load into the solver".into(),
            });
            return;
        }
        let coverage = coverage::rule_coverage_pooled(scheduler.workers(), &model, &tests);
        let all = mutation::mutants(&model);
        let generated = all.len();
        let progress = std::sync::Mutex::new(messages.clone());
        let cache = EquivalenceCache::of_project(&project_dir);
        let report = mutation_pool::mutation_score_cached(
            scheduler.workers(),
            &model,
            &tests,
            all,
            generated,
            &|p: mutation_pool::MutationProgress| {
                if let Ok(messages) = progress.lock() {
                    let _ = messages.send(Msg::CoverageProgress {
                        stamp,
                        text: p.text(),
                    });
                }
            },
            &cache,
        );
        // Only a cache: a failed write costs a later run time, nothing else.
        let _ = cache.save();
        let _ = messages.send(Msg::CoverageDone {
            stamp,
            coverage: Box::new(coverage),
            mutation: Box::new(report),
        });
    });
    stream
}
