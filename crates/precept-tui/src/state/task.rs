//! A job for the background, written where the update asks for it: the
//! engine call it makes and the messages it sends back, stamped with the
//! request it answers. The runtime only runs it on a thread of its own
//! (`effects/runtime/`), so a new background feature needs no effect and no
//! runtime code of its own: the engine call, the message, the update and
//! the view.

use precept_engine::scheduler::Scheduler;
use precept_engine::workspace::Stamp;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a task may use: the project's folder, the solver deadline, and
/// solvers of its own (so the expert's runs stay responsive meanwhile).
pub struct TaskContext {
    pub project_dir: PathBuf,
    pub timeout: Duration,
    /// Workers of the workbench's scheduler, for one of the same size.
    pub solver_jobs: usize,
}

impl TaskContext {
    /// A scheduler of the task's own, as large as the workbench's.
    pub fn scheduler(&self) -> Scheduler {
        Scheduler::new(self.solver_jobs, self.timeout)
    }
}

type Work<M> = Box<dyn FnOnce(&TaskContext, &(dyn Fn(M) + Sync)) + Send>;

/// One background task sending messages `M`: its name (what tests and
/// logs see), the stamp of the request, and its work. Equal when name and
/// stamp are.
pub struct Task<M> {
    pub name: &'static str,
    pub stamp: Stamp,
    work: Arc<Mutex<Option<Work<M>>>>,
}

impl<M> Clone for Task<M> {
    fn clone(&self) -> Task<M> {
        Task {
            name: self.name,
            stamp: self.stamp,
            work: Arc::clone(&self.work),
        }
    }
}

impl<M> Task<M> {
    /// `work` gets the context and the way to send messages back.
    pub fn new(
        name: &'static str,
        stamp: Stamp,
        work: impl FnOnce(&TaskContext, &(dyn Fn(M) + Sync)) + Send + 'static,
    ) -> Task<M> {
        Task {
            name,
            stamp,
            work: Arc::new(Mutex::new(Some(Box::new(work)))),
        }
    }

    /// Does the work (once: a clone run again does nothing).
    pub fn run(&self, context: &TaskContext, send: &(dyn Fn(M) + Sync)) {
        let work = self.work.lock().ok().and_then(|mut work| work.take());
        if let Some(work) = work {
            work(context, send);
        }
    }
}

impl<M> PartialEq for Task<M> {
    fn eq(&self, other: &Task<M>) -> bool {
        self.name == other.name && self.stamp == other.stamp
    }
}

impl<M> std::fmt::Debug for Task<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Task({}, {:?})", self.name, self.stamp.job)
    }
}
