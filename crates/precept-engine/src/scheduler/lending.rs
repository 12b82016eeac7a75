//! The service's policy: a lease gives one worker to one request alone; an
//! idle worker may also be lent to a request that holds a lease already (to
//! decide half of its question), and is wanted back as soon as another
//! request waits for a worker.

use super::worker_ref::WorkerRef;
use crate::solve::{LentWorker, SolverWorker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How often a request waiting for a worker asks again for lent workers
/// back (a worker lent meanwhile is asked too).
const RECALL_EVERY: Duration = Duration::from_millis(20);

/// Which workers are idle, and which are lent with the flag that asks for
/// each back.
pub(super) struct Lending {
    idle: Mutex<Vec<usize>>,
    free: Arc<Semaphore>,
    lent: Mutex<Vec<(usize, Arc<AtomicBool>)>>,
}

impl Lending {
    pub(super) fn new(count: usize) -> Lending {
        Lending {
            idle: Mutex::new((0..count).rev().collect()),
            free: Arc::new(Semaphore::new(count)),
            lent: Mutex::new(Vec::new()),
        }
    }

    fn idle(&self) -> MutexGuard<'_, Vec<usize>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lent(&self) -> MutexGuard<'_, Vec<(usize, Arc<AtomicBool>)>> {
        self.lent.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn recall_lent(&self) {
        for (_, wanted) in self.lent().iter() {
            wanted.store(true, Ordering::Release);
        }
    }
}

/// One worker held by one request until the lease drops. It keeps the
/// workers (and so the model they have loaded) alive.
pub struct Lease {
    worker: WorkerRef,
    lending: Arc<Lending>,
    _permit: OwnedSemaphorePermit,
}

impl Lending {
    /// A lease of one of `workers` (see `Scheduler::lease`).
    pub(super) async fn lease(
        lending: &Arc<Lending>,
        workers: &Arc<[SolverWorker]>,
    ) -> Option<Lease> {
        let permit = match Arc::clone(&lending.free).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let waiting = Arc::clone(&lending.free).acquire_owned();
                tokio::pin!(waiting);
                loop {
                    lending.recall_lent();
                    tokio::select! {
                        permit = &mut waiting => break permit.ok()?,
                        _ = tokio::time::sleep(RECALL_EVERY) => {}
                    }
                }
            }
        };
        let index = lending.idle().pop()?;
        Some(Lease {
            worker: WorkerRef {
                workers: Arc::clone(workers),
                index,
            },
            lending: Arc::clone(lending),
            _permit: permit,
        })
    }

    /// A loan of one of `workers` (see `Scheduler::try_lend`).
    pub(super) fn try_lend(lending: &Arc<Lending>, workers: &Arc<[SolverWorker]>) -> Option<Loan> {
        let permit = Arc::clone(&lending.free).try_acquire_owned().ok()?;
        let index = lending.idle().pop()?;
        let wanted = Arc::new(AtomicBool::new(false));
        lending.lent().push((index, Arc::clone(&wanted)));
        Some(Loan {
            worker: WorkerRef {
                workers: Arc::clone(workers),
                index,
            },
            lending: Arc::clone(lending),
            wanted,
            _permit: permit,
        })
    }
}

impl Lease {
    /// The leased worker, to be used from another thread.
    pub fn worker(&self) -> WorkerRef {
        self.worker.clone()
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // Back in the idle list before the permit (dropped after this) lets
        // the next request in.
        self.lending.idle().push(self.worker.index);
    }
}

/// An idle worker lent to a request that holds a lease already, to decide
/// half of its question; wanted back as soon as another request waits for
/// a worker, and given back when dropped.
pub struct Loan {
    worker: WorkerRef,
    lending: Arc<Lending>,
    wanted: Arc<AtomicBool>,
    _permit: OwnedSemaphorePermit,
}

impl Loan {
    /// The flag set when the worker is wanted back.
    pub fn recall_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.wanted)
    }
}

impl LentWorker for Loan {
    fn worker(&self) -> &SolverWorker {
        &self.worker
    }

    fn wanted_back(&self) -> bool {
        self.wanted.load(Ordering::Acquire)
    }
}

impl Drop for Loan {
    fn drop(&mut self) {
        let index = self.worker.index;
        self.lending.lent().retain(|(lent, _)| *lent != index);
        self.lending.idle().push(index);
    }
}
