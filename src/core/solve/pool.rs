//! A pool of solver workers: each a `SolverWorker` (its own thread, Z3
//! context, watchdog and check gate) with the same model loaded. Edits go
//! to every worker; long jobs hand each worker a share of the work and
//! merge the results in a fixed order (see `testgen/mutation_pool.rs`).

use super::error::SolveError;
use super::worker::SolverWorker;
use crate::core::model::CompiledModel;
use crate::core::smt::Expr;
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
            workers: (0..jobs.max(1))
                .map(|_| SolverWorker::spawn(timeout))
                .collect(),
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
