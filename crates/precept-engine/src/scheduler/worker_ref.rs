//! One worker of a scheduler, usable from any thread: it keeps the
//! scheduler's workers (and so the model they have loaded) alive.

use crate::solve::SolverWorker;
use std::sync::Arc;

/// One worker of a scheduler, usable from any thread.
#[derive(Clone)]
pub struct WorkerRef {
    pub(super) workers: Arc<[SolverWorker]>,
    pub(super) index: usize,
}

impl std::ops::Deref for WorkerRef {
    type Target = SolverWorker;
    fn deref(&self) -> &SolverWorker {
        &self.workers[self.index]
    }
}
