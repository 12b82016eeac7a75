//! How many requests may be running or waiting for a worker at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
