//! A pool of solver workers: each a `SolverWorker` (its own thread, Z3
//! context, watchdog and check gate) with the same model loaded. Edits go
//! to every worker; long jobs hand each worker a share of the work and
//! merge the results in a fixed order (see `testgen/mutation_pool.rs`).

use super::error::SolveError;
use super::lint_checks::{LintEvent, LintMemo, LintShare};
use super::split_verify::{QuestionClock, verify_on_two};
use super::worker::{SolverWorker, Ticket};
use crate::model::CompiledModel;
use crate::model::finding::Finding;
use crate::smt::Expr;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

pub struct SolverPool {
    workers: Vec<SolverWorker>,
}

impl SolverPool {
    /// One worker per core the machine offers.
    pub fn default_jobs() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// `jobs` workers (at least one), each with `timeout` per request.
    pub fn spawn(jobs: usize, timeout: Duration) -> SolverPool {
        SolverPool {
            workers: SolverWorker::spawn_pool(jobs, timeout, |_| 1),
        }
    }

    /// Loads `model` on every worker (they load at the same time) and waits.
    pub fn load(&self, model: &CompiledModel) -> Result<(), SolveError> {
        std::thread::scope(|scope| {
            let loads: Vec<_> = self
                .workers
                .iter()
                .map(|worker| {
                    let model = model.clone();
                    scope.spawn(move || worker.load(model))
                })
                .collect();
            loads
                .into_iter()
                .map(|load| load.join().expect("a solver load thread panicked"))
                .collect::<Result<Vec<()>, SolveError>>()
        })?;
        Ok(())
    }

    /// Applies one rule edit to every worker.
    pub fn replace_rule(&self, id: &str, formula: Option<Expr>) {
        for worker in &self.workers {
            worker.replace_rule(id, formula.clone());
        }
    }

    /// Lints `model` on every worker, each taking groups of rules from a
    /// common queue (see `lint_checks/share.rs`); events stream to
    /// `events` in the same order whatever the number of workers, ending
    /// with `Finished`. Returns a ticket per worker, for `cancel`.
    pub fn lint(&self, model: CompiledModel, events: Sender<LintEvent>) -> Vec<Ticket> {
        self.lint_share(LintShare::new(model, self.workers.len(), events))
    }

    /// As `lint`, taking the findings of groups of rules whose content an
    /// earlier run checked from `memo` (and keeping this run's there).
    pub fn lint_remembering(
        &self,
        model: CompiledModel,
        events: Sender<LintEvent>,
        memo: &Arc<LintMemo>,
    ) -> Vec<Ticket> {
        let share = LintShare::new(model, self.workers.len(), events);
        self.lint_share(share.with_memo(Arc::clone(memo)))
    }

    fn lint_share(&self, share: LintShare) -> Vec<Ticket> {
        let share = Arc::new(share);
        self.workers
            .iter()
            .enumerate()
            .map(|(role, worker)| worker.lint_share(Arc::clone(&share), role))
            .collect()
    }

    /// Verifies one question and waits for its finding: with two workers
    /// or more, the first two decide a side each (`split_verify.rs`).
    pub fn verify(&self, premise: Expr, claim: Expr) -> Finding {
        match &self.workers[..] {
            [first, second, ..] => {
                verify_on_two(first, second, premise, claim, QuestionClock::FromAsking)
            }
            [only] => only.verify(premise, claim),
            [] => Finding::too_complex(
                &premise.to_string(),
                &claim.to_string(),
                "the pool has no solver worker",
            ),
        }
    }

    /// Cancels a job given as one ticket per worker (as `lint` returns).
    pub fn cancel(&self, tickets: &[Ticket]) {
        for (worker, &ticket) in self.workers.iter().zip(tickets) {
            worker.cancel(ticket);
        }
    }

    pub fn workers(&self) -> &[SolverWorker] {
        &self.workers
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }
}
