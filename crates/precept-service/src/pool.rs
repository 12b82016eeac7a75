//! The warm workers of one model, and the limit on how many requests may
//! wait for one.

use precept_engine::solve::SolverWorker;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How often a request waiting for a worker asks again for lent workers
/// back (a worker lent meanwhile is asked too).
const RECALL_EVERY: Duration = Duration::from_millis(20);

/// Solver workers, each loaded with the same model; a lease gives one of
/// them to one request alone. An idle worker may also be lent to a
/// request that has one already (to decide half of a question), and is
/// wanted back as soon as another request waits for a worker.
pub struct WorkerPool {
    workers: Vec<Arc<SolverWorker>>,
    idle: Mutex<Vec<usize>>,
    free: Arc<Semaphore>,
    /// The workers lent now, each with the flag that asks for it back.
    lent: Mutex<Vec<(usize, Arc<AtomicBool>)>>,
}

impl WorkerPool {
    pub fn new(workers: Vec<SolverWorker>) -> WorkerPool {
        let count = workers.len();
        WorkerPool {
            workers: workers.into_iter().map(Arc::new).collect(),
            idle: Mutex::new((0..count).rev().collect()),
            free: Arc::new(Semaphore::new(count)),
            lent: Mutex::new(Vec::new()),
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
    /// While it waits, the workers lent to other requests are wanted back.
    pub async fn acquire(&self) -> Option<(OwnedSemaphorePermit, usize)> {
        let permit = match Arc::clone(&self.free).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let waiting = Arc::clone(&self.free).acquire_owned();
                tokio::pin!(waiting);
                loop {
                    self.recall_lent();
                    tokio::select! {
                        permit = &mut waiting => break permit.ok()?,
                        _ = tokio::time::sleep(RECALL_EVERY) => {}
                    }
                }
            }
        };
        let index = self.take_idle()?;
        Some((permit, index))
    }

    /// An idle worker to lend, if one is free now (never waits): its
    /// place, its index and the flag set when it is wanted back. Give it
    /// back with [`give_back_lent`].
    pub fn try_lend(&self) -> Option<(OwnedSemaphorePermit, usize, Arc<AtomicBool>)> {
        let permit = Arc::clone(&self.free).try_acquire_owned().ok()?;
        let index = self.take_idle()?;
        let wanted = Arc::new(AtomicBool::new(false));
        self.lent_workers().push((index, Arc::clone(&wanted)));
        Some((permit, index, wanted))
    }

    /// Marks lent worker `index` free again (before its permit is dropped).
    pub fn give_back_lent(&self, index: usize) {
        self.lent_workers().retain(|(lent, _)| *lent != index);
        self.give_back(index);
    }

    /// Marks worker `index` free again (before its permit is dropped).
    pub fn give_back(&self, index: usize) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(index);
    }

    fn take_idle(&self) -> Option<usize> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    fn lent_workers(&self) -> std::sync::MutexGuard<'_, Vec<(usize, Arc<AtomicBool>)>> {
        self.lent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks every lent worker back.
    fn recall_lent(&self) {
        for (_, wanted) in self.lent_workers().iter() {
            wanted.store(true, Ordering::Release);
        }
    }

    pub fn worker(&self, index: usize) -> Arc<SolverWorker> {
        Arc::clone(&self.workers[index])
    }

    pub fn worker_ref(&self, index: usize) -> &SolverWorker {
        &self.workers[index]
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
