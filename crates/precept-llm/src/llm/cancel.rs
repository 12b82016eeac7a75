//! The one way to stop a job, whatever it waits on: LLM requests in flight
//! end with `Cancelled`, an answer check stops between its steps, a probe
//! between its questions. Clones share one flag, so the front end keeps
//! one and the job's parts each hold another.

use std::fmt;
use std::sync::Arc;
use tokio::sync::watch;

#[derive(Clone)]
pub struct Cancel(Arc<watch::Sender<bool>>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel(Arc::new(watch::channel(false).0))
    }

    pub fn cancel(&self) {
        self.0.send_replace(true);
    }

    /// Lets work start again after a cancel (a client reused for a new job).
    pub fn reset(&self) {
        self.0.send_replace(false);
    }

    pub fn is_cancelled(&self) -> bool {
        *self.0.borrow()
    }

    /// A receiver that wakes when the flag changes, for async work that
    /// waits on a request and the cancel at once.
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.0.subscribe()
    }
}

impl Default for Cancel {
    fn default() -> Self {
        Cancel::new()
    }
}

impl fmt::Debug for Cancel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cancel({})", self.is_cancelled())
    }
}
