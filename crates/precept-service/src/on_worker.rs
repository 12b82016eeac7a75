//! Running one request's solver work on a leased worker, off the async
//! threads. A request whose client goes away is dropped by the server; the
//! guard here then interrupts the solver, so abandoned work stops at once.

use super::api_error::ApiError;
use super::served_model::ServedModel;
use super::state::ServiceState;
use precept_engine::llm::Cancel;
use precept_engine::scheduler::WorkerRef;
use precept_engine::solve::SolverWorker;
use std::sync::Arc;

/// Interrupts the worker's running job unless disarmed (the job finished).
struct CancelOnDrop {
    worker: WorkerRef,
    cancel: Cancel,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.cancel.cancel();
            self.worker.cancel_running();
            tracing::info!("request abandoned by its client; its solver work was cancelled");
        }
    }
}

/// Runs `job` on a free worker of the model being served now: 429 when the
/// queue is full, 503 when no model serves. The job runs on a thread of its
/// own (the answer verifier and the explain layer block). Answers with the
/// hash of the model the job ran on.
pub async fn on_worker<T, F>(state: &ServiceState, job: F) -> Result<(T, String), ApiError>
where
    F: FnOnce(&Arc<ServedModel>, &SolverWorker, &Cancel) -> T + Send + 'static,
    T: Send + 'static,
{
    let Some(admitted) = state.admission.try_admit() else {
        state.metrics.rejected("queue_full");
        return Err(ApiError::busy());
    };
    let model = state.serving().map_err(ApiError::unavailable)?;
    let lease = model
        .scheduler
        .lease()
        .await
        .ok_or_else(|| ApiError::internal("the worker pool is closed"))?;
    let worker = lease.worker();
    let hash = model.hash.clone();
    let cancel = Cancel::new();
    let mut guard = CancelOnDrop {
        worker: worker.clone(),
        cancel: cancel.clone(),
        armed: true,
    };
    let (done, result) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("precept-request".into())
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                job(&model, &worker, &cancel)
            }));
            // The worker goes back to the pool before the reply is sent.
            drop(lease);
            let _ = done.send(outcome);
        })
        .map_err(|e| ApiError::unavailable(format!("cannot start a request thread: {e}")))?;
    let outcome = result.await;
    guard.armed = false;
    drop(admitted);
    match outcome {
        Ok(Ok(value)) => Ok((value, hash)),
        Ok(Err(_)) => Err(ApiError::internal("the request failed internally")),
        Err(_) => Err(ApiError::internal("the request thread stopped")),
    }
}
