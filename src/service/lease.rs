//! Leasing a warm worker of the model being served for one request.

use super::served_model::ServedModel;
use crate::core::solve::SolverWorker;
use std::sync::Arc;
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
