//! Why a job in the background failed, as its message brings it to the
//! update: kept typed (and shared, so messages stay `Clone`) until a screen
//! shows it.

/// Why a job in the background failed, as its message brings it to the
/// update: the typed error it failed with, shared so that messages stay
/// `Clone`, and what was being done when it failed ("the translator").
#[derive(Debug, Clone)]
pub struct JobError {
    doing: Option<String>,
    cause: std::sync::Arc<dyn std::error::Error + Send + Sync>,
}

impl JobError {
    /// The job failed with `cause`.
    pub fn of(cause: impl std::error::Error + Send + Sync + 'static) -> JobError {
        JobError {
            doing: None,
            cause: std::sync::Arc::new(cause),
        }
    }

    /// The job failed with `cause` while `doing` this ("the translator").
    pub fn doing(
        doing: impl Into<String>,
        cause: impl std::error::Error + Send + Sync + 'static,
    ) -> JobError {
        JobError {
            doing: Some(doing.into()),
            cause: std::sync::Arc::new(cause),
        }
    }

    /// The typed error underneath.
    pub fn cause(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.cause
    }
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.doing {
            Some(doing) => write!(f, "{doing}: {}", self.cause),
            None => self.cause.fmt(f),
        }
    }
}

impl std::error::Error for JobError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.cause)
    }
}

/// A job that could not start, for want of what it needs.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unavailable {
    #[error("no model is loaded")]
    NoModel,
}
