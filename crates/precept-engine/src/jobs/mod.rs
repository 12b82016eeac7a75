//! The LLM jobs, called the same way by every front end: formalizing the
//! project's document with the project's own options (`formalize`),
//! consolidating its vocabulary with the definition pass
//! (`consolidation`), proposing a repair from feedback (`repair`),
//! checking an answer and running the answer tests (`answers`), and
//! probing a chatbot (`probe`).
//!
//! Each is a plain call that blocks until it is done. It takes the job's
//! one [`Cancel`], which stops every LLM request it has in flight and its
//! loop between steps, and reports progress through a callback. A front
//! end that must not block hands the call to [`Scheduler::spawn`] under a
//! [`JobId`]; [`Scheduler::cancel`] then stops it like any solver job.
//!
//! Invariant: a job reads the project only through [`JobContext`], and
//! writes nothing but the LLM's and the translator's caches.
//!
//! [`Scheduler::spawn`]: crate::scheduler::Scheduler::spawn
//! [`Scheduler::cancel`]: crate::scheduler::Scheduler::cancel
//! [`JobId`]: crate::scheduler::JobId

pub mod answers;
pub mod consolidation;
pub mod formalize;
pub mod probe;
pub mod repair;

use crate::llm::{Cancel, LlmClient, LlmError, Mode, configured_client};
use crate::model::project::CACHE_DIR;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a job knows of the project it runs for: its folder (for its
/// settings, document and caches) and the solver deadline.
#[derive(Debug, Clone)]
pub struct JobContext {
    pub project_dir: PathBuf,
    pub timeout: Duration,
}

impl JobContext {
    pub fn new(project_dir: impl Into<PathBuf>, timeout: Duration) -> JobContext {
        JobContext {
            project_dir: project_dir.into(),
            timeout,
        }
    }

    /// The project's cache folder (`.precept-cache`).
    pub fn cache_dir(&self) -> PathBuf {
        self.project_dir.join(CACHE_DIR)
    }

    /// The configured LLM (the default profile), live, caching under the
    /// project, its requests stopped by `cancel`.
    pub fn client(&self, cancel: &Cancel) -> Result<LlmClient, LlmError> {
        profile_client(None, &self.cache_dir().join("llm"), cancel)
    }
}

/// The client of the `llm.toml` profile `name` (the default one when
/// None), live, caching in `cache`, its requests stopped by `cancel`.
pub fn profile_client(
    name: Option<&str>,
    cache: &Path,
    cancel: &Cancel,
) -> Result<LlmClient, LlmError> {
    configured_client(name, Mode::Live, cache.to_path_buf())
        .map(|(client, _)| client.with_cancel(cancel.clone()))
}
