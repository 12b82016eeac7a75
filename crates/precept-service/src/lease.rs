//! Leasing a warm worker of the model being served for one request.

use super::served_model::ServedModel;
use precept_engine::solve::{LentWorker, SolverWorker};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::OwnedSemaphorePermit;

/// One worker of a model's pool, held until the lease drops. It keeps the
/// model alive, so a request finishes on the model it started on.
pub struct Lease {
    pub model: Arc<ServedModel>,
    index: usize,
    _permit: OwnedSemaphorePermit,
}

impl Lease {
    /// Waits for a free worker of `model`.
    pub async fn take(model: Arc<ServedModel>) -> Option<Lease> {
        let (permit, index) = model.pool.acquire().await?;
        Some(Lease {
            model,
            index,
            _permit: permit,
        })
    }

    pub fn worker(&self) -> Arc<SolverWorker> {
        self.model.pool.worker(self.index)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // Back in the idle list before the permit (dropped after this) lets
        // the next request in.
        self.model.pool.give_back(self.index);
    }
}

/// An idle worker of a model's pool lent to a request that holds a lease
/// already, to decide half of its question; wanted back as soon as another
/// request waits for a worker, and given back when dropped.
pub struct Loan {
    model: Arc<ServedModel>,
    index: usize,
    wanted: Arc<AtomicBool>,
    _permit: OwnedSemaphorePermit,
}

impl Loan {
    /// A worker of `model` if one is idle now.
    pub fn try_take(model: &Arc<ServedModel>) -> Option<Loan> {
        let (permit, index, wanted) = model.pool.try_lend()?;
        Some(Loan {
            model: Arc::clone(model),
            index,
            wanted,
            _permit: permit,
        })
    }

    /// The flag set when the worker is wanted back.
    pub fn recall_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.wanted)
    }
}

impl LentWorker for Loan {
    fn worker(&self) -> &SolverWorker {
        self.model.pool.worker_ref(self.index)
    }

    fn wanted_back(&self) -> bool {
        self.wanted.load(Ordering::Acquire)
    }
}

impl Drop for Loan {
    fn drop(&mut self) {
        self.model.pool.give_back_lent(self.index);
    }
}
