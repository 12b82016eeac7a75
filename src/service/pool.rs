//! The warm workers of one model, and the limit on how many requests may
//! wait for one.

use crate::core::solve::SolverWorker;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Solver workers, each loaded with the same model; a lease gives one of
/// them to one request alone.
pub struct WorkerPool {
    workers: Vec<Arc<SolverWorker>>,
    idle: Mutex<Vec<usize>>,
    free: Arc<Semaphore>,
}

impl WorkerPool {
    pub fn new(workers: Vec<SolverWorker>) -> WorkerPool {
        let count = workers.len();
        WorkerPool {
            workers: workers.into_iter().map(Arc::new).collect(),
            idle: Mutex::new((0..count).rev().collect()),
            free: Arc::new(Semaphore::new(count)),
        }
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Waits for a free worker: its place in the pool, held until the
    /// permit drops, and its index (give it back with [`give_back`]).
    pub async fn acquire(&self) -> Option<(OwnedSemaphorePermit, usize)> {
        let permit = Arc::clone(&self.free).acquire_owned().await.ok()?;
        let index = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()?;
        Some((permit, index))
    }

    /// Marks worker `index` free again (before its permit is dropped).
    pub fn give_back(&self, index: usize) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(index);
    }

    pub fn worker(&self, index: usize) -> Arc<SolverWorker> {
        Arc::clone(&self.workers[index])
    }
}

/// How many requests may be running or waiting for a worker at once.
pub struct Admission {
    limit: usize,
    current: AtomicUsize,
}

/// A place in the queue, given back when dropped.
pub struct Admitted(Arc<Admission>);

impl Admission {
    pub fn new(limit: usize) -> Arc<Admission> {
        Arc::new(Admission {
            limit,
            current: AtomicUsize::new(0),
        })
    }

    /// A place, or None when the queue is full.
    pub fn try_admit(self: &Arc<Self>) -> Option<Admitted> {
        let mut now = self.current.load(Ordering::Acquire);
        loop {
            if now >= self.limit {
                return None;
            }
            match self.current.compare_exchange_weak(
                now,
                now + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some(Admitted(Arc::clone(self))),
                Err(seen) => now = seen,
            }
        }
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.current.fetch_sub(1, Ordering::AcqRel);
    }
}
